/**
 * The node's judgement of pattern proposals (reference §1.6 D and E): T&C built by the agbot's
 * own builder (lib/protocol/terms.ts) with a `patternId`, judged with the node's pattern and,
 * for a pattern node, no node policy.
 */
import { describe, expect, it } from 'vitest';
import { parseDeployment } from '#lib/protocol/deployment';
import { consumerPolicy } from '#lib/protocol/policy-compatibility';
import { nodePolicyName, type PolicyDocument } from '#lib/protocol/policy-document';
import { buildTerms } from '#lib/protocol/terms';
import { type DecisionInput, decideOnProposal, patternMatches } from './proposal-checks.ts';

const SERVICE = { org: 'org1', url: 'hello.pattern', version: '1.0.0', arch: 'amd64' };
const plain = JSON.stringify({ services: { hello: { image: 'busybox:latest' } } });
const privileged = JSON.stringify({ services: { hello: { image: 'busybox:latest', privileged: true } } });

const terms = (deployment: string, patternId?: string, userInput: PolicyDocument['userInput'] = []) =>
  buildTerms({
    producerPolicyName: nodePolicyName('org1/node1'),
    consumerPolicyName: patternId ? 'org1/pat_hello.pattern_org1_amd64' : 'org1/policy',
    ...(patternId ? { patternId } : {}),
    workload: { ...SERVICE, deployment, deploymentSignature: 'sig' },
    ...consumerPolicy({ constraints: patternId ? [] : ['purpose == demo'] }, undefined, SERVICE, false),
    userInput,
  });

const input = (t: PolicyDocument, deployment: string, extra: Partial<DecisionInput> = {}): DecisionInput => ({
  terms: t,
  producerPolicy: { header: { name: nodePolicyName('org1/node1'), version: '2.0' } },
  nodePolicy: undefined,
  nodeUserInput: [],
  service: SERVICE,
  deployment: parseDeployment(deployment),
  declared: [],
  secrets: { ok: true },
  ...extra,
});

describe('pattern proposals on the node', () => {
  it('accepts a proposal for the node’s pattern with no node policy', () => {
    const t = terms(plain, 'org1/pat');
    expect(patternMatches(t, 'org1/pat')).toEqual({ ok: true });
    expect(decideOnProposal(input(t, plain))).toEqual({ ok: true });
  });

  it('refuses (no reply) a proposal for another pattern, or a pattern proposal to a policy node', () => {
    expect(patternMatches(terms(plain, 'org1/other'), 'org1/pat')).toEqual({
      ok: false,
      reason: `pattern org1/other is not the node's pattern`,
    });
    expect(patternMatches(terms(plain, 'org1/pat'), '').ok).toBe(false);
    expect(patternMatches(terms(plain), 'org1/pat')).toEqual({
      ok: false,
      reason: `pattern "" is not the node's pattern`,
    });
  });

  it('a policy proposal still needs the node policy and its match', () => {
    const t = terms(plain);
    expect(patternMatches(t, '')).toEqual({ ok: true });
    expect(decideOnProposal(input(t, plain))).toEqual({ ok: false, reason: 'the node has no policy' });
    const nodePolicy = { properties: [{ name: 'purpose', value: 'demo' }], constraints: [] };
    expect(decideOnProposal(input(t, plain, { nodePolicy }))).toEqual({ ok: true });
    const other = { properties: [{ name: 'purpose', value: 'other' }], constraints: [] };
    expect(decideOnProposal(input(t, plain, { nodePolicy: other })).ok).toBe(false);
  });

  it('keeps the privilege, user input and secret checks for pattern proposals', () => {
    const t = terms(privileged, 'org1/pat');
    expect(decideOnProposal(input(t, privileged))).toEqual({
      ok: false,
      reason: 'the service needs privileged mode, which the node policy does not allow',
    });
    const allows = { properties: [{ name: 'platform.allowPrivileged', value: true }], constraints: [] };
    expect(decideOnProposal(input(t, privileged, { nodePolicy: allows }))).toEqual({ ok: true });

    const declared = [{ name: 'GREETING', type: 'string' }];
    expect(decideOnProposal(input(terms(plain, 'org1/pat'), plain, { declared })).ok).toBe(false);
    const given = [
      { serviceOrgid: 'org1', serviceUrl: SERVICE.url, inputs: [{ name: 'GREETING', value: 'hi' }] },
    ];
    expect(decideOnProposal(input(terms(plain, 'org1/pat', given), plain, { declared }))).toEqual({
      ok: true,
    });

    const missing = { ok: false as const, reason: 'no value was sent for secret token' };
    expect(decideOnProposal(input(terms(plain, 'org1/pat'), plain, { secrets: missing }))).toEqual(missing);
  });
});
