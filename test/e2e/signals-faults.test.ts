import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signDeployment } from '#lib/protocol/deployment-signature';
import { tableName } from '#tables/client';
import type { Credentials } from '#test/support/http';
import { createOrg, createUser, expectStatus } from '#test/support/world';
import { type AgbotStreamReader, startAgbotStream } from '../../scripts/local/agbot-stream.ts';
import { callerOf as callAs, testSigner } from './support/agbot-org.ts';
import { type IdleAgents, startIdleAgents, waitUntilIdle } from './support/idle-agents.ts';
import { useOffline } from './support/offline.ts';
import {
  type ChannelProxy,
  channelProxy,
  type ExchangeWatch,
  exchangeWatch,
} from './support/signal-faults.ts';

/**
 * Lost "look now" posts (issue 32, docs/signals.md): three real agents (`dist/agent.mjs`, default
 * settings: the channel on, an idle node polls hourly) idle on the channel, while a proxy in front
 * of the channel's management API answers 500 to the first post and every third one after it. The
 * in-stack agbot (npm start's default, fed by the local stream reader) proposes to all three when
 * a deployment policy is added; every one of them still receives its proposal, because each post
 * is retried (and a connection that cannot be reached is closed, so its agent reconnects and
 * polls). Before the dispatcher, one lost post left its node waiting for its hourly poll. The
 * deadline only bounds a failure; how long it takes is `npm run bench:signals`'s figure.
 */
const channel: ChannelProxy = await channelProxy();
const scratch = mkdtempSync(join(tmpdir(), 'signals-faults-'));
const server = useOffline({
  env: {
    EXCHANGE_AGBOT: 'in-stack',
    EXCHANGE_SECRETS_MASTER_KEY_FILE: join(scratch, 'secrets-master-key'),
    // Announced to the agents, and the address every post goes to: the faulty proxy.
    EXCHANGE_SIGNALS_URL: channel.url,
  },
});
const ORG = 'faults';
const NODES = 3;
const SERVICE = { url: 'hello.faults', version: '1.0.0', arch: 'amd64' };
/** Bounds a failure only: a node left to its hourly poll would never make it. */
const DEADLINE_MS = 60_000;
const signer = testSigner();
let exchange: ExchangeWatch | undefined;
let idle: IdleAgents | undefined;
let reader: AgbotStreamReader | undefined;
let owner: Credentials;

beforeAll(async () => {
  channel.target(Number(new URL(server.signalsUrl).port));
  const root = { user: 'root/root', secret: server.rootPassword };
  expectStatus(await server.http('POST', '/v1/admin/initdb', { auth: root }), 201, 'initdb');
  reader = await startAgbotStream({
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT as string,
    table: tableName(),
    lambdaUrl: server.lambdaUrl,
    log: () => undefined,
  });
  await createOrg({ http: server.http, root }, ORG);
  owner = await createUser({ http: server.http, root }, ORG, 'owner', { admin: true });
  const deployment = JSON.stringify({ services: { hello: { image: 'busybox:latest' } } });
  const service = {
    label: SERVICE.url,
    ...SERVICE,
    sharable: 'multiple',
    deployment,
    deploymentSignature: signDeployment(deployment, signer.privateKey),
  };
  expectStatus(await callAs(server)(owner, 'POST', `/v1/orgs/${ORG}/services`, service), 201, 'service');
  exchange = await exchangeWatch(server.baseUrl);
  idle = await startIdleAgents({
    count: NODES,
    org: ORG,
    owner,
    http: server.http,
    exchange,
    properties: [{ name: 'purpose', value: 'faults' }],
    signerPem: signer.publicKey,
  });
  // Each agent has opened its channel and made a poll with nothing for it: it now polls hourly.
  await waitUntilIdle(idle.agents, channel, exchange, 180_000);
}, 400_000);

afterAll(async () => {
  await idle?.stop();
  await reader?.stop();
  exchange?.close();
  channel.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('lost "look now" posts', () => {
  it('every idle node receives its proposal although one post in three fails', async () => {
    const agents = idle?.agents ?? [];
    channel.arm((n) => n % 3 === 1);
    const policy = {
      label: 'faults',
      service: {
        name: SERVICE.url,
        org: ORG,
        arch: SERVICE.arch,
        serviceVersions: [{ version: SERVICE.version }],
      },
      constraints: ['purpose == faults'],
    };
    expectStatus(
      await callAs(server)(owner, 'POST', `/v1/orgs/${ORG}/business/policies/faults`, policy),
      201,
      'policy',
    );
    const deadline = Date.now() + DEADLINE_MS;
    const waiting = new Set(agents);
    while (waiting.size > 0 && Date.now() < deadline) {
      for (const agent of [...waiting])
        if ((await agent.events('received_proposal')).length > 0) waiting.delete(agent);
      if (waiting.size > 0) await sleep(250);
    }
    const counts = channel.counts();
    console.log(
      `posts to @connections since the policy: ${counts.posts} (${counts.failed} failed on purpose), closes: ${counts.closes}; ` +
        `signal dispatcher: ${server.signalsStream?.invocations()} invocations, ${server.signalsStream?.failures()} failed`,
    );
    expect(counts.failed, 'the proxy failed posts').toBeGreaterThan(0);
    expect(
      [...waiting].map((agent) => agent.node),
      'nodes that never received their proposal',
    ).toEqual([]);
  });
});
