import { describe, expect, it } from 'vitest';
import { matchesStreamPatterns } from '#lib/feed/agbot-stream-filter';
import { countedItemPatterns, signalStreamPatterns } from '#lib/signals/stream-filter';
import { countMovesInStream } from '#tables/org/stream-counts';

/**
 * Which stream records move which org counter (tables/org/stream-counts.ts), and that the
 * dispatcher's filter (the same patterns on AWS and in the local stream reader) lets them through.
 */
const record = (eventName: string, pk: string, sk: string) => ({
  eventName,
  dynamodb: { Keys: { pk: { S: pk }, sk: { S: sk } } },
});
const patterns = [...signalStreamPatterns(), ...countedItemPatterns()];

describe('countMovesInStream', () => {
  it('counts messages and agreements of agbots and nodes created (+1) and removed (−1), by org', () => {
    const moves = countMovesInStream([
      record('INSERT', 'AGBOT#acme/ab', 'MSG#000000000001'),
      record('INSERT', 'AGBOT#acme/ab', 'MSG#000000000002'),
      record('REMOVE', 'AGBOT#acme/ab', 'MSG#000000000001'),
      record('INSERT', 'NODE#acme/n1', 'MSG#000000000001'),
      record('INSERT', 'AGBOT#acme/ab', 'AGREEMENT#a1'),
      record('INSERT', 'NODE#other/n2', 'AGREEMENT#a1'),
      record('REMOVE', 'NODE#other/n2', 'MSG#000000000007'),
    ]);
    expect(Object.fromEntries(moves)).toEqual({
      acme: { agbotMsgs: 1, nodeMsgs: 1, agbotAgreements: 1 },
      other: { nodeAgreements: 1, nodeMsgs: -1 },
    });
  });

  it('leaves out updates, other items of the partitions, other partitions, and orgs whose moves cancel out', () => {
    const moves = countMovesInStream([
      record('MODIFY', 'AGBOT#acme/ab', 'AGREEMENT#a1'),
      record('INSERT', 'AGBOT#acme/ab', 'MSGSEQ'),
      record('INSERT', 'NODE#acme/n1', 'MSGFROM#acme/ab'),
      record('INSERT', 'NODE#acme/n1', 'NODE'),
      record('INSERT', 'AGBOTSTATE#IBM/agbot', 'AGREEMENT#a1'),
      record('INSERT', 'USER#acme/alice', 'MSG#000000000001'),
      record('INSERT', 'NODE#gone/n1', 'MSG#000000000001'),
      record('REMOVE', 'NODE#gone/n1', 'MSG#000000000001'),
    ]);
    expect(moves.size).toBe(0);
  });
});

describe("the dispatcher's filter", () => {
  it('takes counted items created or removed, not updated, and not items the counter ignores elsewhere', () => {
    expect(matchesStreamPatterns(patterns, record('INSERT', 'NODE#acme/n1', 'MSG#000000000001'))).toBe(true);
    expect(matchesStreamPatterns(patterns, record('REMOVE', 'AGBOT#acme/ab', 'AGREEMENT#x'))).toBe(true);
    expect(matchesStreamPatterns(patterns, record('MODIFY', 'AGBOT#acme/ab', 'AGREEMENT#x'))).toBe(false);
    expect(matchesStreamPatterns(patterns, record('INSERT', 'NODE#acme/n1', 'NODE'))).toBe(false);
    expect(matchesStreamPatterns(patterns, record('INSERT', 'USER#acme/u', 'MSG#1'))).toBe(false);
    // A prefix matches only a string that starts with it.
    expect(matchesStreamPatterns(patterns, record('INSERT', 'XNODE#acme/n1', 'MSG#1'))).toBe(false);
  });
});
