/**
 * One negotiation through the module as both sides will use it: the agbot proposes, the node
 * checks and accepts, the agbot acks, the node verifies, then a secret update and a cancel. Each
 * hop is sealed for its receiver and opened with the sender key "from the Exchange".
 */
import { describe, expect, it } from 'vitest';
import { newAgreementId } from '#lib/protocol/agreement-id';
import {
  buildCancel,
  buildProposal,
  buildReply,
  buildReplyAck,
  buildSecretUpdate,
  buildVerify,
  buildVerifyReply,
  serializeMessage,
} from '#lib/protocol/build-message';
import { open } from '#lib/protocol/envelope-open';
import { seal } from '#lib/protocol/envelope-seal';
import { exchangePublicKey, generateMessagingKeys, parseExchangePublicKey } from '#lib/protocol/keys';
import type { ProtocolMessage } from '#lib/protocol/messages';
import { parseMessage, readProposal } from '#lib/protocol/parse-message';
import { compatible, consumerPolicy, deploymentView } from '#lib/protocol/policy-compatibility';
import { nodePolicyName } from '#lib/protocol/policy-document';
import { REASON } from '#lib/protocol/reason-codes';
import { decodeSecretValue, encodeSecretValue } from '#lib/protocol/secret-binding';
import { buildTerms } from '#lib/protocol/terms';

describe('a Basic protocol conversation built from lib/protocol alone', () => {
  const agbot = generateMessagingKeys();
  const node = generateMessagingKeys();
  // What each side reads from the Exchange: the other's published publicKey string.
  const agbotPublished = exchangePublicKey(agbot.publicKey);
  const nodePublished = exchangePublicKey(node.publicKey);

  const toNode = (m: ProtocolMessage) =>
    parseMessage(
      open(
        seal(serializeMessage(m), agbot.privateKey, parseExchangePublicKey(nodePublished)),
        node.privateKey,
        agbotPublished,
      ).message,
    );
  const toAgbot = (m: ProtocolMessage) =>
    parseMessage(
      open(
        seal(serializeMessage(m), node.privateKey, parseExchangePublicKey(agbotPublished)),
        agbot.privateKey,
        nodePublished,
      ).message,
    );

  it('proposal → reply → replyack → verification → secret update → cancel', () => {
    const nodePolicy = {
      properties: [{ name: 'purpose', value: 'demo' }],
      constraints: ['openhorizon.service.url == svc.url'],
      deployment: { properties: [], constraints: [] },
    };
    const service = { url: 'svc.url', org: 'svcorg', version: '1.0.0', arch: 'amd64' };
    const consumer = consumerPolicy({ constraints: ['purpose == demo'] }, undefined, service, false);
    const producer = deploymentView(nodePolicy);
    expect(compatible(consumer, producer)).toEqual({ ok: true }); // the agbot, before proposing

    const agreementId = newAgreementId();
    const terms = buildTerms({
      producerPolicyName: nodePolicyName('myorg/node1'),
      consumerPolicyName: 'myorg/mypolicy',
      workload: { ...service, deployment: '{"services":{"web":{"image":"x"}}}', deploymentSignature: 'c2ln' },
      ...consumer,
      secretDetails: [
        {
          serviceOrgid: 'svcorg',
          serviceUrl: 'svc.url',
          enableNodeLevelSecrets: false,
          secrets: [{ token: encodeSecretValue({ key: 'k', value: 'v1' }) }],
        },
      ],
    });
    const producerPolicy = { header: { name: nodePolicyName('myorg/node1'), version: '2.0' }, ...producer };
    const proposal = toNode(buildProposal({ agreementId, terms, producerPolicy, consumerId: 'IBM/agbot' }));
    expect(proposal.type).toBe('proposal');
    if (proposal.type !== 'proposal') return;

    const received = readProposal(proposal); // the node
    expect(compatible(received.terms, deploymentView(nodePolicy))).toEqual({ ok: true });
    expect(decodeSecretValue(received.terms.secretDetails?.[0]?.secrets?.[0]?.token as string).value).toBe(
      'v1',
    );

    expect(toAgbot(buildReply(agreementId, true, 'myorg/node1'))).toMatchObject({
      decision: true,
      deviceId: 'myorg/node1',
    });
    expect(toNode(buildReplyAck(agreementId, true))).toMatchObject({ type: 'replyack', decision: true });
    expect(toAgbot(buildVerify(agreementId))).toMatchObject({
      type: 'basicagreementverification',
      agreementId,
    });
    expect(toNode(buildVerifyReply(agreementId, true))).toMatchObject({ exists: true });

    const update = toNode(
      buildSecretUpdate(agreementId, [
        {
          serviceOrgid: 'svcorg',
          serviceUrl: 'svc.url',
          enableNodeLevelSecrets: false,
          secrets: [{ token: encodeSecretValue({ key: 'k', value: 'v2' }) }],
        },
      ]),
    );
    expect(update).toMatchObject({ updateType: 'basicagreementupdatesecret' });
    expect(toNode(buildCancel(agreementId, REASON.agbotPolicyChanged))).toMatchObject({ reason: 204 });
  });
});
