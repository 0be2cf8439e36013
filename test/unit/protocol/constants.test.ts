import { describe, expect, it } from 'vitest';
import { AGBOT_STATES, NODE_STATES } from '#lib/protocol/agreement-states';
import { describeReason, REASON } from '#lib/protocol/reason-codes';
import { agbotMessageTtlS, protocolTimeoutS } from '#lib/protocol/timeouts';

describe('reason codes (docs/protocol.md#reason-codes)', () => {
  it('describe each code with upstream text; 122, 999 and unknown codes get the fallback', () => {
    expect(describeReason(REASON.agbotNoReply)).toBe('agreement bot never received reply to proposal');
    expect(describeReason(REASON.agbotNegativeReply)).toBe('agreement bot received negative reply');
    expect(describeReason(REASON.agbotPolicyChanged)).toBe('agreement bot policy changed');
    expect(describeReason(REASON.userRequested)).toBe('user requested');
    for (const code of [122, 999, 102, 0])
      expect(describeReason(code)).toBe('unknown reason code, device might be downlevel');
  });

  it('has no 102 and keeps node codes below 200', () => {
    const codes = Object.values(REASON) as number[];
    expect(codes).not.toContain(102);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('states (docs/protocol.md#agreement-rows-and-states)', () => {
  it('spell the Exchange states as upstream does, capital A of the re-sync included', () => {
    expect(AGBOT_STATES).toMatchObject({
      formedProposal: 'Formed Proposal',
      producerAgreed: 'Producer agreed',
      producerAgreedOnResync: 'Producer Agreed',
      finalized: 'Finalized Agreement',
    });
    expect(NODE_STATES.agreed).toBe('Agree to proposal');
  });
});

describe('timeouts (docs/protocol.md#timeouts)', () => {
  it('scale the node max heartbeat, 120 s when it has none', () => {
    expect(protocolTimeoutS()).toBe(240);
    expect(protocolTimeoutS(0)).toBe(240);
    expect(protocolTimeoutS(60)).toBe(120);
    expect(agbotMessageTtlS()).toBe(240);
  });
});
