/**
 * The node's judgement of pattern proposals (docs/protocol.md#proposals-on-the-node D and E): T&C built by the agbot's
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
      reason:
        'the service needs privileged mode, which the node policy does not allow (container hello: privileged "true" runs with every device and capability)',
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

describe('deployments that hand over the host (lib/protocol/privileged.ts)', () => {
  const allows = { properties: [{ name: 'platform.allowPrivileged', value: true }], constraints: [] };
  const closed = { properties: [{ name: 'platform.allowPrivileged', value: false }], constraints: [] };
  const asking: Array<[string, Record<string, unknown>]> = [
    ['privileged', { privileged: true }],
    ['network host', { network: 'host' }],
    ['pid host', { pid: 'host' }],
    ['ipc host', { ipc: 'host' }],
    ['the host’s /', { binds: ['/:/host'] }],
    ['/etc through ..', { binds: ['/srv/../etc:/etc'] }],
    ['the engine socket', { binds: ['/var/run/docker.sock:/var/run/docker.sock'] }],
    ['/proc/1/root', { binds: ['/proc/1/root:/host'] }],
    ['SYS_ADMIN', { cap_add: ['SYS_ADMIN'] }],
    ['a device', { devices: ['/dev/sda'] }],
    ['unconfined seccomp', { security_opt: ['seccomp=unconfined'] }],
  ];

  it.each(asking)('%s: refused without platform.allowPrivileged, accepted with it', (_name, fields) => {
    const text = JSON.stringify({ services: { hello: { image: 'busybox:latest', ...fields } } });
    const t = terms(text, 'org1/pat');
    for (const nodePolicy of [undefined, closed]) {
      const decision = decideOnProposal(input(t, text, { nodePolicy }));
      expect(decision.ok).toBe(false);
      expect(!decision.ok && decision.reason).toMatch(
        /^the service needs privileged mode, which the node policy does not allow \(container hello: /,
      );
    }
    expect(decideOnProposal(input(t, text, { nodePolicy: allows }))).toEqual({ ok: true });
  });

  it('the node’s own paths (its data directory) are protected too', () => {
    const text = JSON.stringify({
      services: { hello: { image: 'busybox:latest', binds: ['/data/agent/secrets:/s'] } },
    });
    const t = terms(text, 'org1/pat');
    expect(decideOnProposal(input(t, text))).toEqual({ ok: true });
    const hostAccess = { protectedPaths: ['/data/agent'] };
    expect(decideOnProposal(input(t, text, { hostAccess })).ok).toBe(false);
  });

  it('a bind that stays with the container is accepted without privilege', () => {
    const text = JSON.stringify({
      services: {
        hello: {
          image: 'busybox:latest',
          binds: ['cache:/cache', '/srv/app:/app'],
          cap_add: ['NET_BIND_SERVICE'],
        },
      },
    });
    expect(decideOnProposal(input(terms(text, 'org1/pat'), text))).toEqual({ ok: true });
  });
});
