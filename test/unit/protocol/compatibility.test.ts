import { describe, expect, it } from 'vitest';
import { isValidVersionRange, versionInRange } from '#lib/catalog/version-range';
import { archMatches, canonicalArch } from '#lib/protocol/arch';
import { satisfies } from '#lib/protocol/constraint-eval';
import { parseDeployment } from '#lib/protocol/deployment';
import {
  compatible,
  consumerPolicy,
  deploymentView,
  mergePolicies,
  propertiesAgree,
} from '#lib/protocol/policy-compatibility';
import {
  deploymentNeedsPrivilege,
  nodeAllowsPrivilege,
  PRIVILEGED_CONSTRAINT,
} from '#lib/protocol/privileged';
import { nodeAcceptsTerms } from '#lib/protocol/proposal-decision';
import { resolveSecretBindings, secretsNamedBy } from '#lib/protocol/secret-binding-check';
import { checkUserInput } from '#lib/protocol/user-input-check';

const service = { org: 'svcorg', url: 'svc.url', version: '1.2.0', arch: 'amd64' };

describe('compatible(): both directions', () => {
  const deployment = { properties: [{ name: 'tier', value: 'gold' }], constraints: ['purpose == demo'] };
  const node = { properties: [{ name: 'purpose', value: 'demo' }], constraints: ['tier == gold'] };

  it('holds when each side satisfies the other', () => {
    expect(compatible(deployment, node)).toEqual({ ok: true });
  });

  it('fails when the node lacks what the deployment asks', () => {
    const result = compatible(deployment, { ...node, properties: [{ name: 'purpose', value: 'prod' }] });
    expect(result).toEqual({ ok: false, reason: 'node: constraint "purpose == demo" is not satisfied' });
  });

  it('fails when the deployment lacks what the node asks (the other direction)', () => {
    const result = compatible({ ...deployment, properties: [{ name: 'tier', value: 'bronze' }] }, node);
    expect(result).toEqual({ ok: false, reason: 'deployment: constraint "tier == gold" is not satisfied' });
  });

  it('treats null and absent sections as empty', () => {
    expect(compatible({ properties: null, constraints: null }, {})).toEqual({ ok: true });
  });
});

describe('deploymentView(): the node policy deployment sees', () => {
  it('overlays the deployment section on the top level; its constraints replace the top level ones', () => {
    const view = deploymentView({
      properties: [
        { name: 'a', value: 1 },
        { name: 'b', value: 1 },
      ],
      constraints: ['top == 1'],
      deployment: {
        properties: [
          { name: 'b', value: 2 },
          { name: 'c', value: 3 },
        ],
        constraints: ['dep == 1'],
      },
    });
    expect(view.properties).toEqual([
      { name: 'a', value: 1 },
      { name: 'b', value: 2 },
      { name: 'c', value: 3 },
    ]);
    expect(view.constraints).toEqual(['dep == 1']);
  });

  it('keeps the top-level constraints when the section has none', () => {
    expect(
      deploymentView({ constraints: ['top == 1'], deployment: { constraints: [] } }).constraints,
    ).toEqual(['top == 1']);
  });
});

describe('consumerPolicy(): deployment ⊕ service policy ⊕ built-ins', () => {
  it('keeps the first of a name, ANDs constraints once, adds the service built-ins', () => {
    const merged = mergePolicies(
      { properties: [{ name: 'x', value: 1 }], constraints: ['a == 1'] },
      {
        properties: [
          { name: 'x', value: 2 },
          { name: 'y', value: 3 },
        ],
        constraints: ['a == 1', 'b == 2'],
      },
    );
    expect(merged).toEqual({
      properties: [
        { name: 'x', value: 1 },
        { name: 'y', value: 3 },
      ],
      constraints: ['a == 1', 'b == 2'],
    });
    const consumer = consumerPolicy({ constraints: ['purpose == demo'] }, undefined, service, false);
    expect(consumer.properties).toEqual([
      { name: 'openhorizon.service.url', value: 'svc.url' },
      { name: 'openhorizon.service.name', value: 'svc.url' },
      { name: 'openhorizon.service.org', value: 'svcorg' },
      { name: 'openhorizon.service.version', value: '1.2.0' },
      { name: 'openhorizon.service.arch', value: 'amd64' },
      { name: 'openhorizon.allowPrivileged', value: false },
    ]);
    expect(consumer.constraints).toEqual(['purpose == demo']);
  });

  it('a privileged service needs a node that allows it, under either agent spelling', () => {
    const consumer = consumerPolicy({}, {}, service, true);
    expect(consumer.properties).toContainEqual({ name: 'openhorizon.allowPrivileged', value: true });
    expect(consumer.constraints).toEqual([PRIVILEGED_CONSTRAINT]);
    const upstreamNode = [{ name: 'openhorizon.allowPrivileged', value: true }];
    const ourNode = [{ name: 'platform.allowPrivileged', value: true }];
    const closedNode = [{ name: 'platform.allowPrivileged', value: false }];
    expect(satisfies(consumer.constraints, upstreamNode).ok).toBe(true);
    expect(satisfies(consumer.constraints, ourNode).ok).toBe(true);
    expect(satisfies(consumer.constraints, closedNode).ok).toBe(false);
    expect([upstreamNode, ourNode, closedNode].map(nodeAllowsPrivilege)).toEqual([true, true, false]);
  });

  it('finds privilege in a deployment: privileged or host network', () => {
    const needs = (text: string) => deploymentNeedsPrivilege(parseDeployment(text));
    expect(needs('{"services":{"a":{"image":"x","privileged":true}}}')).toBe(true);
    expect(needs('{"services":{"a":{"image":"x"},"b":{"image":"y","network":"host"}}}')).toBe(true);
    expect(needs('{"services":{"a":{"image":"x","privileged":false}}}')).toBe(false);
  });
});

describe('propertiesAgree(): the node checks the proposal against its current policy', () => {
  it('same-named properties must be equal, except the measured memory and cpu', () => {
    const current = [
      { name: 'purpose', value: 'demo' },
      { name: 'platform.memory', value: 2048 },
    ];
    expect(
      propertiesAgree(
        [
          { name: 'purpose', value: 'demo' },
          { name: 'platform.memory', value: 1024 },
        ],
        current,
      ).ok,
    ).toBe(true);
    expect(propertiesAgree([{ name: 'purpose', value: 'prod' }], current)).toEqual({
      ok: false,
      reason: 'property purpose has changed',
    });
    expect(propertiesAgree([{ name: 'other', value: 1 }], current).ok).toBe(true);
  });
});

describe('arch', () => {
  it('maps upstream synonyms and treats "" and "*" as any', () => {
    expect(['x86_64', 'armhf', 'aarch64', 'ppc64le'].map(canonicalArch)).toEqual([
      'amd64',
      'arm',
      'arm64',
      'ppc64le',
    ]);
    expect(archMatches('amd64', 'x86_64')).toBe(true);
    expect(archMatches('arm64', 'amd64')).toBe(false);
    expect(archMatches('*', 'arm')).toBe(true);
    expect(archMatches('', 'arm')).toBe(true);
  });
});

describe("version ranges (OSGi; only cases the catalog's lib/catalog/version-range.ts agrees on)", () => {
  it.each([
    ['1.0.0', '[1.0.0,2.0.0)', true],
    ['2.0.0', '[1.0.0,2.0.0)', false],
    ['2.0.0', '[1.0.0,2.0.0]', true],
    ['1.0.0', '(1.0.0,2.0.0]', false],
    ['1.5', '[1.4.9,1.5.0]', true],
    ['10.0.0', '[9.0.0,INFINITY)', true],
    ['1.0.0', '1.0.0', true],
    ['0.9.9', '1.0.0', false],
    ['1.0.x', '[1.0.0,2.0.0)', false],
    ['1.0.0.0', '[1.0.0,2.0.0)', false],
  ])('%s in %s → %s', (version, range, expected) => {
    expect(versionInRange(version, range)).toBe(expected);
  });

  it('knows a range from a plain word', () => {
    expect(isValidVersionRange('[0.0.0,INFINITY)')).toBe(true);
    expect(isValidVersionRange('[1.0.0,2.0.0)')).toBe(true);
    expect(isValidVersionRange('one')).toBe(false);
    expect(isValidVersionRange('')).toBe(false);
  });
});

describe('checkUserInput(): required inputs present and typed', () => {
  const declared = [
    { name: 'REQ', type: 'string' },
    { name: 'COUNT', type: 'int', defaultValue: '3' },
    { name: 'LIST', type: 'list of strings', defaultValue: 'a' },
  ];
  const entry = (inputs: { name: string; value: unknown }[], extra = {}) => ({
    serviceOrgid: 'svcorg',
    serviceUrl: 'svc.url',
    inputs,
    ...extra,
  });

  it('passes when every variable without a default has a value in the policy or the node', () => {
    expect(checkUserInput(service, declared, [entry([{ name: 'REQ', value: 'x' }])], []).ok).toBe(true);
    expect(checkUserInput(service, declared, [], [entry([{ name: 'REQ', value: 'x' }])]).ok).toBe(true);
    expect(checkUserInput(service, [{ name: 'OPT', defaultValue: 'd' }], [], []).ok).toBe(true);
    expect(checkUserInput(service, [], null, null).ok).toBe(true);
  });

  it('fails on a missing value, or an entry for another service, arch or version', () => {
    expect(checkUserInput(service, declared, [], [])).toEqual({
      ok: false,
      reason: 'no user input found for the service',
    });
    expect(checkUserInput(service, declared, [entry([{ name: 'COUNT', value: 1 }])], []).ok).toBe(false);
    expect(
      checkUserInput(service, declared, [entry([{ name: 'REQ', value: 'x' }], { serviceUrl: 'other' })], [])
        .ok,
    ).toBe(false);
    expect(
      checkUserInput(service, declared, [entry([{ name: 'REQ', value: 'x' }], { serviceArch: 'arm64' })], [])
        .ok,
    ).toBe(false);
    const outOfRange = entry([{ name: 'REQ', value: 'x' }], { serviceVersionRange: '[2.0.0,INFINITY)' });
    expect(checkUserInput(service, declared, [outOfRange], []).ok).toBe(false);
  });

  it('type-checks the values given, the node value first', () => {
    const typed = (inputs: { name: string; value: unknown }[]) =>
      checkUserInput(service, declared, [entry(inputs)], []).ok;
    expect(
      typed([
        { name: 'REQ', value: 'x' },
        { name: 'COUNT', value: 2 },
        { name: 'LIST', value: ['a', 'b'] },
      ]),
    ).toBe(true);
    expect(typed([{ name: 'REQ', value: 5 }])).toBe(false);
    expect(
      typed([
        { name: 'REQ', value: 'x' },
        { name: 'COUNT', value: 2.5 },
      ]),
    ).toBe(false);
    expect(
      typed([
        { name: 'REQ', value: 'x' },
        { name: 'LIST', value: ['a', 1] },
      ]),
    ).toBe(false);
    const nodeWins = checkUserInput(
      service,
      declared,
      [entry([{ name: 'REQ', value: 5 }])],
      [entry([{ name: 'REQ', value: 'ok' }])],
    );
    expect(nodeWins.ok).toBe(true);
  });
});

describe('resolveSecretBindings(): every secret the deployment names is bound', () => {
  const deployment = JSON.stringify({
    services: {
      web: { image: 'x', secrets: { ai_secret: { description: 'token' } } },
      db: { image: 'y', secrets: { db_pw: {} } },
    },
  });
  const binding = (secrets: Record<string, string>[], extra = {}) => ({
    serviceOrgid: 'svcorg',
    serviceUrl: 'svc.url',
    enableNodeLevelSecrets: false,
    secrets,
    ...extra,
  });

  it('lists the names the containers ask for', () => {
    expect(secretsNamedBy(parseDeployment(deployment)).sort()).toEqual(['ai_secret', 'db_pw']);
    expect(secretsNamedBy(parseDeployment('{"services":{"a":{"image":"x"}}}'))).toEqual([]);
  });

  it('gives each service secret its secrets-manager name', () => {
    const result = resolveSecretBindings(
      service,
      ['ai_secret', 'db_pw'],
      [binding([{ ai_secret: 'mysecret' }, { db_pw: 'user/alice/db' }], { serviceArch: '*' })],
    );
    expect(result.ok).toBe(true);
    expect(result.bound?.map((b) => [b.serviceSecret, b.managerSecret])).toEqual([
      ['ai_secret', 'mysecret'],
      ['db_pw', 'user/alice/db'],
    ]);
  });

  it('fails on an unbound name, or no binding for this service', () => {
    expect(
      resolveSecretBindings(service, ['ai_secret', 'db_pw'], [binding([{ ai_secret: 'mysecret' }])]),
    ).toEqual({
      ok: false,
      reason: 'secret db_pw of service svcorg/svc.url is not bound',
    });
    expect(
      resolveSecretBindings(service, ['ai_secret'], [binding([{ ai_secret: 'm' }], { serviceUrl: 'x' })]).ok,
    ).toBe(false);
    expect(resolveSecretBindings(service, ['ai_secret'], [binding([{ ai_secret: '' }])]).ok).toBe(false);
    expect(resolveSecretBindings(service, [], undefined)).toEqual({ ok: true, bound: [] });
  });
});

describe('nodeAcceptsTerms(): the node decides on a proposal (docs/protocol.md#proposals-on-the-node E)', () => {
  const nodePolicy = {
    properties: [
      { name: 'purpose', value: 'demo' },
      { name: 'platform.memory', value: 4096 },
    ],
    constraints: ['openhorizon.service.url == svc.url'],
  };
  const terms = {
    header: { name: 't', version: '2.0' },
    properties: [{ name: 'openhorizon.service.url', value: 'svc.url' }],
    constraints: ['purpose == demo'],
  };
  const producer = { header: { name: 'Policy for o/n', version: '2.0' }, properties: nodePolicy.properties };

  it('accepts terms that still match the node policy both ways', () => {
    expect(nodeAcceptsTerms(terms, producer, nodePolicy)).toEqual({ ok: true });
  });

  it('ignores drift in measured memory, refuses a property that changed since the agbot matched', () => {
    const drifted = {
      ...nodePolicy,
      properties: [nodePolicy.properties[0], { name: 'platform.memory', value: 2048 }],
    };
    expect(nodeAcceptsTerms(terms, producer, drifted as typeof nodePolicy).ok).toBe(true);
    const changed = { ...nodePolicy, properties: [{ name: 'purpose', value: 'prod' }] };
    expect(nodeAcceptsTerms(terms, producer, changed)).toEqual({
      ok: false,
      reason: 'property purpose has changed',
    });
  });

  it('refuses terms whose constraints the node no longer meets, or that do not meet the node', () => {
    expect(nodeAcceptsTerms({ ...terms, constraints: ['purpose == other'] }, producer, nodePolicy).ok).toBe(
      false,
    );
    expect(nodeAcceptsTerms({ ...terms, properties: [] }, producer, nodePolicy).ok).toBe(false);
  });
});
