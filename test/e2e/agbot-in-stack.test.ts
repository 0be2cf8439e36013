import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signDeployment } from '#lib/protocol/deployment-signature';
import type { Proposal, ProtocolMessage } from '#lib/protocol/messages';
import { tableName } from '#tables/client';
import { EVENT_MS } from '#test/support/deadlines';
import type { Credentials } from '#test/support/http';
import { createOrg, createUser, expectStatus } from '#test/support/world';
import { type Received, ScriptedNode } from '../../agbot/test-support/scripted-node.ts';
import { hzn } from '../../cli/test-support/run-hzn.ts';
import { type AgbotStreamReader, startAgbotStream } from '../../scripts/local/agbot-stream.ts';
import { callerOf, testSigner } from './support/agbot-org.ts';
import { useOffline } from './support/offline.ts';

/**
 * The in-stack agbot as `npm start` runs it (docs/agbot.md, "In the stack"): the built-in agbot
 * `IBM/agbot` made as initdb makes it, serverless-offline running the `agbotRound` function, and
 * the local reader of DynamoDB Local's stream invoking it through the Lambda API. No agbot process:
 * a deployment policy added, or a node registered, reaches a scripted node as a proposal, brought
 * by the stream (how fast is npm run bench:agbot's figure).
 */
const scratch = mkdtempSync(join(tmpdir(), 'agbot-in-stack-'));
const server = useOffline({
  env: {
    EXCHANGE_AGBOT: 'in-stack',
    // The secrets manager's local key: initdb seals the agbot's token with it, the round opens it.
    EXCHANGE_SECRETS_MASTER_KEY_FILE: join(scratch, 'secrets-master-key'),
  },
});
const ORG = 'in-stack';
const SERVICE = { url: 'hello.instack', version: '1.0.0', arch: 'amd64' };
/**
 * How long a node polls for a proposal once the stream's rounds have settled (the proposal is in
 * its mailbox by then): under the schedule's minute, so only the stream can have brought it. It
 * only bounds a failure; the time itself is npm run bench:agbot's figure.
 */
const PROPOSAL_WITHIN_MS = 20_000;

/** The proposal to `node`, once every change written so far has been through the agbot's rounds. */
async function proposalAfterRounds(node: ScriptedNode): Promise<Received> {
  await reader?.settled();
  return node.waitFor(isProposal, PROPOSAL_WITHIN_MS);
}

let reader: AgbotStreamReader | undefined;
let owner: Credentials;
const call = callerOf(server);

const isProposal = (m: ProtocolMessage) => m.type === 'proposal';

async function addPolicy(name: string, test: string): Promise<void> {
  const body = {
    label: name,
    service: {
      name: SERVICE.url,
      org: ORG,
      arch: SERVICE.arch,
      serviceVersions: [{ version: SERVICE.version }],
    },
    constraints: [`test == ${test}`],
  };
  expectStatus(
    await call(owner, 'POST', `/v1/orgs/${ORG}/business/policies/${name}`, body),
    201,
    `policy ${name}`,
  );
}

async function newNode(id: string, test: string): Promise<ScriptedNode> {
  const node = new ScriptedNode(server.baseUrl, ORG, id);
  await node.register(owner, { properties: [{ name: 'test', value: test }] });
  return node;
}

beforeAll(async () => {
  const root = { user: 'root/root', secret: server.rootPassword };
  // As the first initdb on AWS: the built-in agbot and its sealed token.
  expectStatus(await server.http('POST', '/v1/admin/initdb', { auth: root }), 201, 'initdb');
  reader = await startAgbotStream({
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT as string,
    table: tableName(),
    lambdaUrl: server.lambdaUrl,
    log: () => undefined,
  });
  await createOrg({ http: server.http, root }, ORG);
  owner = await createUser({ http: server.http, root }, ORG, 'owner');
  const signer = testSigner();
  const deployment = JSON.stringify({ services: { hello: { image: 'busybox:latest' } } });
  const service = {
    label: SERVICE.url,
    ...SERVICE,
    sharable: 'multiple',
    deployment,
    deploymentSignature: signDeployment(deployment, signer.privateKey),
  };
  expectStatus(await call(owner, 'POST', `/v1/orgs/${ORG}/services`, service), 201, 'service');
}, 240_000);

afterAll(async () => {
  await reader?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** A wait on an event: the deadline only bounds a failure. */
const WAIT = { timeout: EVENT_MS, interval: 300 };

describe('the in-stack agbot (npm start’s default)', () => {
  it('proposes to a node once its deployment policy is added (the stream brings it)', async () => {
    const node = await newNode('n-policy', 'policy-first');
    // Let the rounds the node's registration started settle: nothing to propose yet.
    await reader?.settled();
    expect(await node.poll()).toEqual([]);
    await addPolicy('p-policy', 'policy-first');
    const { message, agbotId } = (await proposalAfterRounds(node)) as Received & {
      message: Proposal;
    };
    expect(agbotId).toBe('IBM/agbot');
    expect(message.agreementId).toMatch(/^[0-9a-f]{64}$/);
    expect(reader?.invocations()).toBeGreaterThan(0);
  });

  it('proposes to a node registered after its policy', async () => {
    await addPolicy('p-node', 'node-later');
    await reader?.settled();
    const node = await newNode('n-later', 'node-later');
    await proposalAfterRounds(node);
  });

  it('never proposes twice to a node for one policy, however many invocations run', async () => {
    const node = await newNode('n-once', 'once');
    await addPolicy('p-once', 'once');
    await proposalAfterRounds(node);
    // More changes (and so rounds), and two invocations at once: one runs, the other asks it for another round.
    await Promise.all([invoke(), invoke(), addPolicy('p-other', 'nobody')]);
    await reader?.settled();
    await node.poll();
    expect(node.received.filter((r) => isProposal(r.message))).toHaveLength(1);
  });

  it("tells the policy's owner, through `hzn agbot`, which node matched and why another was skipped", async () => {
    const matching = await newNode('n-match', 'status');
    await newNode('n-miss', 'elsewhere');
    await addPolicy('p-status', 'status');
    await proposalAfterRounds(matching);
    const env = {
      HZN_EXCHANGE_URL: `${server.baseUrl}/v1`,
      HZN_EXCHANGE_USER_AUTH: `${owner.user}:${owner.secret}`,
    };
    const names = await hzn(['agbot', 'policy', 'list'], { env });
    expect(JSON.parse(names.stdout)[ORG]).toContain('p-status');
    type PolicyStatus = { matched: number; proposed: number; skipped: { node: string; reason: string }[] };
    // The status is written at the end of the policy's search, just after the proposal went out.
    const status = await vi.waitFor(async () => {
      const run = await hzn(['agbot', 'policy', 'list', ORG, 'p-status'], { env });
      expect(run.code, run.stderr).toBe(0);
      const read = JSON.parse(run.stdout) as PolicyStatus;
      expect(read.matched).toBeGreaterThan(0);
      return read;
    }, WAIT);
    expect(status).toMatchObject({ org: ORG, name: 'p-status', matched: 1, proposed: 1, agreed: 0 });
    expect(status.skipped.map((s) => s.node)).toContain(`${ORG}/n-miss`);
    expect(status.skipped.map((s) => s.node)).not.toContain(`${ORG}/n-match`);
    expect(status.skipped.find((s) => s.node === `${ORG}/n-miss`)?.reason).toMatch(/test == status/);
    const agreements = JSON.parse((await hzn(['agbot', 'agreement', 'list'], { env })).stdout);
    expect(agreements).toContainEqual(
      expect.objectContaining({ edge_node_id: `${ORG}/n-match`, policy_name: `${ORG}/p-status` }),
    );
  });
});

async function invoke(): Promise<void> {
  const response = await fetch(
    `${server.lambdaUrl}/2015-03-31/functions/open-exchange-dev-agbotRound/invocations`,
    {
      method: 'POST',
      body: '{}',
    },
  );
  expect(response.status).toBe(200);
}
