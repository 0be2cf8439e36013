/**
 * The scripted agbot of bench/agent-workloads.ts (as in test/e2e/agent-agreements.test.ts): it
 * publishes its messaging key, proposes with lib/protocol, reads the node's answers from its own
 * mailbox at a fixed interval, acks, and updates a secret.
 */
import { newAgreementId } from '#lib/protocol/agreement-id';
import {
  buildProposal,
  buildReplyAck,
  buildSecretUpdate,
  serializeMessage,
} from '#lib/protocol/build-message';
import { signDeployment } from '#lib/protocol/deployment-signature';
import { open } from '#lib/protocol/envelope-open';
import { seal } from '#lib/protocol/envelope-seal';
import { exchangePublicKey, generateMessagingKeys, parseExchangePublicKey } from '#lib/protocol/keys';
import type { ProtocolMessage } from '#lib/protocol/messages';
import { parseMessage } from '#lib/protocol/parse-message';
import { consumerPolicy } from '#lib/protocol/policy-compatibility';
import { nodePolicyName } from '#lib/protocol/policy-document';
import { encodeSecretValue } from '#lib/protocol/secret-binding';
import { buildTerms } from '#lib/protocol/terms';
import type { Credentials, Http } from '../test/support/http.ts';

const SERVICE_URL = 'bench.hello';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const keys = generateMessagingKeys();

export async function scriptedAgbot(o: {
  http: Http;
  org: string;
  nodeId: string;
  agbot: Credentials;
  user: Credentials;
}) {
  const nodePath = `/v1/orgs/${o.org}/nodes/${o.nodeId}`;
  const agbotPath = `/v1/orgs/${o.agbot.user}`.replace(`/orgs/${o.org}/`, `/orgs/${o.org}/agbots/`);
  const res = await o.http('PATCH', agbotPath, {
    auth: o.agbot,
    body: { publicKey: exchangePublicKey(keys.publicKey) },
  });
  if (res.status !== 200) throw new Error(`PATCH agbot → ${res.status}`);
  const nodeKey = async () =>
    (await o.http('GET', nodePath, { auth: o.user })).body.nodes[`${o.org}/${o.nodeId}`].publicKey as string;
  let known = '';

  const inbox = async (): Promise<ProtocolMessage[]> => {
    const answer = await o.http('GET', `${agbotPath}/msgs`, { auth: o.agbot });
    const messages: { msgId: number; nodePubKey: string; message: string }[] = answer.body?.messages ?? [];
    const opened: ProtocolMessage[] = [];
    for (const m of messages) {
      await o.http('DELETE', `${agbotPath}/msgs/${m.msgId}`, { auth: o.agbot });
      opened.push(parseMessage(open(m.message, keys.privateKey, m.nodePubKey).message));
    }
    return opened;
  };

  return {
    /** Polls the node's published key every `everyMs` (an agbot finds nodes by their key). */
    async waitForNodeKey(everyMs: number) {
      for (;;) {
        known = await nodeKey();
        if (known) return;
        await sleep(everyMs);
      }
    },
    async send(message: ProtocolMessage) {
      const sealed = seal(serializeMessage(message), keys.privateKey, parseExchangePublicKey(known));
      const sent = await o.http('POST', `${nodePath}/msgs`, {
        auth: o.agbot,
        body: { message: sealed, ttl: 300 },
      });
      if (sent.status !== 201) throw new Error(`POST node msgs → ${sent.status}`);
    },
    /** Reads its mailbox every `everyMs` until the node's reply comes, then sends the replyack. */
    async acceptReply(agreementId: string, everyMs: number) {
      for (;;) {
        const reply = (await inbox()).find((m) => m.type === 'reply' && m.agreementId === agreementId);
        if (reply) {
          if (!('decision' in reply) || !reply.decision) throw new Error(`the node refused ${agreementId}`);
          await this.send(buildReplyAck(agreementId, true));
          return;
        }
        await sleep(everyMs);
      }
    },
    async drain() {
      await inbox();
    },
  };
}

const deployment = (image: string) =>
  JSON.stringify({
    services: {
      hello: { image, command: ['sleep', '3600'], secrets: { token: { description: 'api token' } } },
    },
  });

export function proposal(o: {
  org: string;
  nodeId: string;
  agbot: string;
  image: string;
  signer: { privateKey: string };
  name: string;
  value: string;
}) {
  const service = { url: SERVICE_URL, org: o.org, version: '1.0.0', arch: 'amd64' };
  const dep = deployment(o.image);
  const binding = { serviceOrgid: o.org, serviceUrl: SERVICE_URL, enableNodeLevelSecrets: false };
  const nodeFull = `${o.org}/${o.nodeId}`;
  const terms = buildTerms({
    producerPolicyName: nodePolicyName(nodeFull),
    consumerPolicyName: `${o.org}/${o.name}`,
    workload: { ...service, deployment: dep, deploymentSignature: signDeployment(dep, o.signer.privateKey) },
    ...consumerPolicy({ constraints: ['purpose == bench'] }, undefined, service, false),
    secretBinding: [{ ...binding, secrets: [{ token: 'mysecret' }] }],
    secretDetails: [{ ...binding, secrets: [{ token: encodeSecretValue({ key: 'user', value: o.value }) }] }],
  });
  const producerPolicy = {
    header: { name: nodePolicyName(nodeFull), version: '2.0' },
    properties: [{ name: 'purpose', value: 'bench' }],
  };
  const agreementId = newAgreementId();
  return {
    agreementId,
    message: buildProposal({ agreementId, terms, producerPolicy, consumerId: `${o.org}/${o.agbot}` }),
  };
}

export const secretUpdate = (org: string, agreementId: string, value: string) =>
  buildSecretUpdate(agreementId, [
    {
      serviceOrgid: org,
      serviceUrl: SERVICE_URL,
      enableNodeLevelSecrets: false,
      secrets: [{ token: encodeSecretValue({ key: 'user', value }) }],
    },
  ]);
