import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isAgreementId, newAgreementId } from '#lib/protocol/agreement-id';
import {
  buildCancel,
  buildDataReceivedAck,
  buildPolicyChangeUpdate,
  buildProposal,
  buildReply,
  buildReplyAck,
  buildSecretUpdate,
  buildUpdateReply,
  buildVerify,
  buildVerifyReply,
  serializeMessage,
} from '#lib/protocol/build-message';
import type { Proposal } from '#lib/protocol/messages';
import {
  MessageFormatError,
  parseMessage,
  readProposal,
  UnknownMessageTypeError,
} from '#lib/protocol/parse-message';

const fx = JSON.parse(readFileSync(new URL('./fixtures/upstream-messages.json', import.meta.url), 'utf8'));
const ag: string = fx.agreementId;
const text = (value: unknown) => JSON.stringify(value);

describe('builders write what anax sends, byte for byte', () => {
  it.each([
    ['reply', () => buildReply(ag, true, 'myorg/node1')],
    ['replyack', () => buildReplyAck(ag, true)],
    ['dataverificationack', () => buildDataReceivedAck(ag)],
    ['cancel', () => buildCancel(ag, 105)],
    ['verify', () => buildVerify(ag)],
    ['verifyReply', () => buildVerifyReply(ag, true)],
    ['secretUpdate', () => buildSecretUpdate(ag, fx.secretUpdate.metadata)],
    ['policyChangeUpdate', () => buildPolicyChangeUpdate(ag, fx.terms)],
    ['updateReply', () => buildUpdateReply(ag, 'basicagreementupdatesecret', true)],
  ])('%s', (name, build) => {
    expect(serializeMessage(build())).toBe(text(fx[name]));
  });

  it('proposal: tsandcs and producerPolicy are JSON strings inside the message', () => {
    const built = buildProposal({
      agreementId: ag,
      terms: fx.terms,
      producerPolicy: fx.producerPolicy,
      consumerId: 'agbotorg/agbot1',
    });
    expect(serializeMessage(built)).toBe(text(fx.proposal));
    expect(typeof JSON.parse(serializeMessage(built)).tsandcs).toBe('string');
  });
});

describe('serializeMessage escapes as Go does', () => {
  it('writes <, >, & and U+2028 as \\u escapes at every level, and reads back the same text', () => {
    const deployment = '{"services":{"a":{"image":"x","command":["sh","-c","a<b && c>d\u2028"]}}}';
    const terms = { ...fx.terms, workloads: [{ ...fx.terms.workloads[0], deployment }] };
    const proposal = buildProposal({
      agreementId: ag,
      terms,
      producerPolicy: fx.producerPolicy,
      consumerId: 'o/a',
    });
    expect(proposal.tsandcs).toContain('a\\u003cb \\u0026\\u0026 c\\u003ed\\u2028');
    const wire = serializeMessage(proposal);
    expect(wire).not.toMatch(/[<>&\u2028]/);
    expect(wire).toContain('a\\\\u003cb');
    const back = readProposal(parseMessage(wire) as Proposal);
    expect(back.terms.workloads?.[0]?.deployment).toBe(deployment);
  });
});

describe('parseMessage reads upstream messages', () => {
  it.each([
    'proposal',
    'reply',
    'replyack',
    'dataverification',
    'dataverificationack',
    'cancel',
    'verify',
    'verifyReply',
    'secretUpdate',
    'policyChangeUpdate',
    'updateReply',
  ])('%s parses to the same content', (name) => {
    expect(parseMessage(text(fx[name]))).toEqual(fx[name]);
  });

  it('a proposal decodes to its T&C and producer policy, one workload with deployment and signature', () => {
    const proposal = parseMessage(text(fx.proposal)) as Proposal;
    const { terms, producerPolicy } = readProposal(proposal);
    expect(terms.header.name).toBe('Policy for myorg/node1 merged with myorg/mypolicy');
    expect(terms.workloads?.[0]).toMatchObject({
      workloadUrl: 'svc.url',
      organization: 'svcorg',
      version: '1.0.0',
    });
    expect(terms.workloads?.[0]?.deployment_signature).toBe('c2lnbmF0dXJl');
    expect(terms.secretDetails?.[0]?.secrets?.[0]).toHaveProperty('ai_secret');
    expect(producerPolicy.properties).toContainEqual({ name: 'purpose', value: 'demo' });
  });

  it('ignores unknown keys, as Go does', () => {
    const parsed = parseMessage(text({ ...fx.cancel, blockchain: 'x', extra: { a: 1 } }));
    expect(parsed).toEqual(fx.cancel);
  });
});

describe('parseMessage refuses what upstream would not act on', () => {
  const refused = (value: unknown) => () => parseMessage(typeof value === 'string' ? value : text(value));

  it('an unknown type is its own error, so the receiver can delete it', () => {
    expect(refused({ ...fx.cancel, type: 'meteringnotification' })).toThrow(UnknownMessageTypeError);
  });

  it.each([
    ['not JSON', '{"type":'],
    ['an array', [fx.cancel]],
    ['no type', { ...fx.cancel, type: undefined }],
    ['another protocol', { ...fx.cancel, protocol: 'Citizen Scientist' }],
    ['a version that is not an integer', { ...fx.cancel, version: 1.5 }],
    ['no agreement id', { ...fx.cancel, agreementId: '' }],
    ['an agreement id that is not 64 hex', { ...fx.cancel, agreementId: '../../etc' }],
    ['uppercase hex agreement id', { ...fx.cancel, agreementId: ag.toUpperCase() }],
    ['a negative reason', { ...fx.cancel, reason: -1 }],
    ['a reason as text', { ...fx.cancel, reason: '105' }],
    ['a reply without deviceId', { ...fx.reply, deviceId: '' }],
    ['a reply without decision', { ...fx.reply, decision: undefined }],
    ['a proposal without consumerId', { ...fx.proposal, consumerId: '' }],
    ['a proposal with tsandcs as an object', { ...fx.proposal, tsandcs: fx.terms }],
    ['a verification reply with exists as text', { ...fx.verifyReply, exists: 'true' }],
    ['a secret update whose metadata is not bindings', { ...fx.secretUpdate, metadata: fx.terms }],
    ['a policy-change update whose metadata is a string', { ...fx.policyChangeUpdate, metadata: '{}' }],
  ])('%s', (_name, value) => {
    expect(refused(value)).toThrow(MessageFormatError);
  });

  it('accepts an update of another type, so the node can answer it with accepted:false', () => {
    const parsed = parseMessage(text({ ...fx.secretUpdate, updateType: 'somethingnew', metadata: 7 }));
    expect(parsed).toMatchObject({ updateType: 'somethingnew' });
  });

  it('never repeats a secret value in its error', () => {
    const bad = {
      ...fx.secretUpdate,
      metadata: [{ ...fx.secretUpdate.metadata[0], enableNodeLevelSecrets: 's3cret' }],
    };
    expect(refused(bad)).toThrow(/metadata\.0\.enableNodeLevelSecrets/);
    try {
      parseMessage(text(bad));
    } catch (err) {
      expect(String(err)).not.toContain('s3cret');
      expect(String(err)).not.toContain(fx.secretUpdate.metadata[0].secrets[0].ai_secret);
    }
  });
});

describe('readProposal', () => {
  const proposal = (terms: unknown, producer: unknown = fx.producerPolicy): Proposal =>
    ({
      ...fx.proposal,
      tsandcs: typeof terms === 'string' ? terms : text(terms),
      producerPolicy: text(producer),
    }) as Proposal;

  it('wants exactly one workload', () => {
    expect(() => readProposal(proposal({ ...fx.terms, workloads: [] }))).toThrow(/exactly one workload/);
    const two = { ...fx.terms, workloads: [fx.terms.workloads[0], fx.terms.workloads[0]] };
    expect(() => readProposal(proposal(two))).toThrow(/exactly one workload/);
  });

  it('wants a T&C header name and JSON in both strings', () => {
    expect(() => readProposal(proposal({ ...fx.terms, header: { name: '', version: '2.0' } }))).toThrow(
      /header/,
    );
    expect(() => readProposal(proposal('not json'))).toThrow(/tsandcs is not a JSON string/);
    expect(() => readProposal(proposal(fx.terms, { header: 7 }))).toThrow(
      /producerPolicy: bad or missing header/,
    );
  });
});

describe('agreement ids', () => {
  it('are 64 lowercase hex characters, fresh each time', () => {
    const a = newAgreementId();
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(isAgreementId(a)).toBe(true);
    expect(newAgreementId()).not.toBe(a);
    expect(isAgreementId(`${a}0`)).toBe(false);
  });
});
