import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodePolicyName } from '#lib/protocol/policy-document';
import {
  decodeSecretValue,
  encodeSecretValue,
  maskSecretValues,
  SECRET_MASK,
  SecretValueError,
} from '#lib/protocol/secret-binding';
import { buildTerms } from '#lib/protocol/terms';

const fx = JSON.parse(readFileSync(new URL('./fixtures/upstream-messages.json', import.meta.url), 'utf8'));

describe('buildTerms', () => {
  const input = {
    producerPolicyName: nodePolicyName('myorg/node1'),
    consumerPolicyName: 'myorg/mypolicy',
    workload: {
      url: 'svc.url',
      org: 'svcorg',
      version: '1.0.0',
      arch: 'amd64',
      deployment: '{"services":{"web":{"image":"busybox:1.36"}}}',
      deploymentSignature: 'c2lnbmF0dXJl',
    },
    properties: fx.terms.properties,
    constraints: ['purpose == demo'],
    nodeHealth: { missing_heartbeat_interval: 600, check_agreement_status: 120 },
    userInput: fx.terms.userInput,
    secretBinding: fx.terms.secretBinding,
    secretDetails: [
      {
        ...fx.terms.secretBinding[0],
        secrets: [{ ai_secret: encodeSecretValue({ key: 'user', value: 's3cret' }) }],
      },
    ],
  };

  it('writes the T&C of docs/protocol.md#proposal-and-terms as anax serialises it (fields in Go order, legacy sections empty)', () => {
    expect(JSON.stringify(buildTerms(input))).toBe(JSON.stringify(fx.terms));
  });

  it('leaves out what Go omits when empty, and adds patternId only for patterns', () => {
    const bare = buildTerms({
      ...input,
      properties: [],
      constraints: [],
      userInput: [],
      secretBinding: undefined,
      secretDetails: [],
    });
    const sent = JSON.parse(JSON.stringify(bare));
    expect(Object.keys(sent)).toEqual([
      'header',
      'agreementProtocols',
      'workloads',
      'valueExchange',
      'dataVerification',
      'proposalRejection',
      'nodeHealth',
    ]);
    expect(sent).not.toHaveProperty('properties');
    expect(sent).not.toHaveProperty('patternId');
    expect(buildTerms({ ...input, patternId: 'myorg/pat' }).patternId).toBe('myorg/pat');
  });
});

describe('secret values in proposals and updates', () => {
  it('are base64 of {"key","value"}, as upstream encodes them', () => {
    const encoded = encodeSecretValue({ key: 'user', value: 's3cret' });
    expect(Buffer.from(encoded, 'base64').toString()).toBe('{"key":"user","value":"s3cret"}');
    expect(encoded).toBe(fx.terms.secretDetails[0].secrets[0].ai_secret);
    expect(decodeSecretValue(encoded)).toEqual({ key: 'user', value: 's3cret' });
  });

  it('refuse a damaged value without repeating it', () => {
    for (const bad of [
      'not base64!',
      Buffer.from('s3cret').toString('base64'),
      Buffer.from('{"key":1}').toString('base64'),
    ]) {
      expect(() => decodeSecretValue(bad)).toThrow(SecretValueError);
      try {
        decodeSecretValue(bad);
      } catch (err) {
        expect(String(err)).not.toContain('s3cret');
      }
    }
  });

  it('are masked for logs and views', () => {
    const masked = maskSecretValues(fx.terms.secretDetails);
    expect(masked[0]?.secrets).toEqual([{ ai_secret: SECRET_MASK }]);
    expect(JSON.stringify(masked)).not.toContain(fx.terms.secretDetails[0].secrets[0].ai_secret);
  });
});
