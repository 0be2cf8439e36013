import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '#lib/json-logger';
import { useInProcessExchange } from '#test/support/in-process-exchange';
import { tempDir } from '#test/support/temp-dir';
import { type Agent, createAgent } from '../../../agent/agent.ts';
import { pollExchange } from '../../../agent/sync/poll.ts';
import { HOST, testConfig } from '../../../agent/test-support/harness.ts';
import { executableName } from '../../../agent/upgrade/download.ts';
import type { UpgradeHost } from '../../../agent/upgrade/host.ts';
import { runUpgradeJob } from '../../../agent/upgrade/job.ts';
import { startUpgradeWorker } from '../../../agent/upgrade/worker.ts';
import { type ObjectStore, startObjectStore } from '../../../scripts/local/object-store.ts';
import { publishAgentFiles } from '../../../scripts/publish-agent-files.ts';

/**
 * The agent's download stage (agent/upgrade/download.ts) against the Exchange's handlers over HTTP
 * and the local object store, with files published by `npm run publish-agent`'s code: a manifest
 * signed by the pinned key and matching files are downloaded; a manifest signed by another key,
 * or a file whose bytes are not the manifest's, is refused before anything is kept.
 */
const dir = tempDir('nmp-agent-');
const pinned = generateKeyPairSync('rsa', { modulusLength: 2048 });
const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
let store: ObjectStore;
let agent: Agent;
let stopWorker: (() => Promise<void>) | undefined;
beforeAll(async () => {
  store = await startObjectStore({ dir: join(dir, 'store') });
  process.env.EXCHANGE_OBJECTS_URL = store.url;
  process.env.EXCHANGE_OBJECTS_SECRET = store.secret;
  const keyFile = join(dir, 'agent-upgrade.pem');
  writeFileSync(keyFile, pinned.publicKey.export({ type: 'spki', format: 'pem' }));
  process.env.HZN_AGENT_UPGRADE_KEYS = keyFile;
});
afterAll(async () => {
  await stopWorker?.();
  await agent?.stop();
  await store?.stop();
  delete process.env.HZN_AGENT_UPGRADE_KEYS;
});
const server = useInProcessExchange();

const root = () => ({ user: 'root/root', secret: server.rootPassword });
const admin = { user: 'acme/admin', secret: 'admin-password-1' };
const node = { org: 'acme', id: 'n1', token: 'n1-token-secret' };

/** Publishes `version` with the executable's bytes, signed with `key`. */
async function publish(version: string, bytes: Buffer, key = pinned) {
  const files = [executableName(), 'agent-install.sh'].map((name) => {
    const path = join(dir, version, name);
    mkdirSync(join(dir, version), { recursive: true });
    writeFileSync(path, name === 'agent-install.sh' ? '#!/bin/sh\n' : bytes);
    return path;
  });
  return publishAgentFiles({
    cssUrl: `${server.baseUrl}/v1/css`,
    credentials: `root/root:${server.rootPassword}`,
    version,
    files,
    signingKey: key.privateKey,
    publicKeyPem: key.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  });
}

/** Replaces the stored bytes of the executable of `version` (as someone with write access to the store could). */
async function tamper(version: string, bytes: Buffer) {
  const auth = {
    authorization: `Basic ${Buffer.from(`root/root:${server.rootPassword}`).toString('base64')}`,
  };
  const object = `${server.baseUrl}/v1/css/api/v1/objects/IBM/agent_software_files-${version}/${executableName()}`;
  const { url } = (await (await fetch(`${object}/upload`, { headers: auth })).json()) as { url: string };
  expect((await fetch(url, { method: 'PUT', body: bytes })).ok).toBe(true);
}

const addPolicy = async (name: string, manifest: string) =>
  expect(
    (
      await server.http('POST', `/v1/orgs/acme/managementpolicies/${name}`, {
        auth: admin,
        body: { label: name, enabled: true, start: 'now', startWindow: 0, agentUpgradePolicy: { manifest } },
      })
    ).status,
  ).toBe(201);
const exchangeStatus = async (name: string) =>
  (await server.http('GET', `/v1/orgs/acme/nodes/n1/managementStatus/${name}`, { auth: admin })).body
    ?.managementStatus?.[`acme/${name}`]?.agentUpgradePolicyStatus;
const executable = join(dir, 'bin', 'horizon-agent');
const restarts: string[] = [];
const host = (version: string): UpgradeHost => ({
  version,
  executable,
  singleExecutable: true,
  restart: (file) => {
    restarts.push(`${version} → ${readFileSync(file).length} bytes`);
    void stopWorker?.(); // a real restart never comes back: this agent runs no further job
  },
});
const jobFile = (name: string) => join(dir, 'agent', 'nmp', 'acme', name, executableName());

describe('the agent downloads and verifies an upgrade', () => {
  it('downloads a signed manifest and a matching executable, swaps and restarts, counts successful after the restart; refuses another signer and altered bytes', async () => {
    expect(
      (await server.http('POST', '/v1/orgs/acme', { auth: root(), body: { label: 'a', description: 'a' } }))
        .status,
    ).toBe(201);
    await server.http('POST', '/v1/orgs/acme/users/admin', {
      auth: root(),
      body: { password: admin.secret, email: 'a@x', admin: true },
    });
    await server.http('PUT', '/v1/orgs/acme/nodes/n1', {
      auth: admin,
      body: { name: 'n1', token: node.token, pattern: '', publicKey: '' },
    });
    const good = Buffer.alloc(200_000, 7);
    await publish('9.0.0', good);
    await publish('9.1.0', Buffer.alloc(1000, 1), stranger);
    await publish('9.2.0', Buffer.alloc(1000, 2));
    await tamper('9.2.0', Buffer.alloc(1000, 3));

    agent = await createAgent({
      config: testConfig(`${server.baseUrl}/v1`, join(dir, 'agent')),
      log: silentLogger,
      host: HOST,
    });
    const registered = await agent.app.inject({
      method: 'POST',
      url: '/node',
      payload: { id: node.id, organization: node.org, token: node.token, name: 'n1' },
    });
    expect(registered.statusCode).toBe(201);
    const worker = startUpgradeWorker(
      agent.ctx,
      { registry: agent.ctx.workers, log: agent.ctx.log, retryMinMs: 20, retryMaxMs: 100 },
      runUpgradeJob,
      host('0.1.0'),
    );
    stopWorker = () => worker.stop();
    mkdirSync(join(dir, 'bin'));
    writeFileSync(executable, 'the running agent', { mode: 0o755 });

    await addPolicy('good', 'IBM/agent-upgrade-9.0.0');
    await addPolicy('stranger', 'IBM/agent-upgrade-9.1.0');
    await addPolicy('altered', 'IBM/agent-upgrade-9.2.0');
    await pollExchange(agent.ctx);

    // The good one (the earliest)  was downloaded, hashed as the signed manifest says, swapped in and the agent restarted.
    await expect
      .poll(async () => (await exchangeStatus('good'))?.status, { timeout: 120_000 })
      .toBe('initiated');
    await expect.poll(() => restarts.length).toBe(1); // initiated is written before the swap
    expect(readFileSync(executable).equals(good)).toBe(true);
    expect(readFileSync(`${executable}.previous`, 'utf8')).toBe('the running agent');
    expect(restarts).toEqual(['0.1.0 → 200000 bytes']);
    expect((await exchangeStatus('good')).upgradedVersions.softwareVersion).toBe('9.0.0');

    // The agent that starts next (9.0.0) finds the journal; once it has reached the Exchange: successful.
    await stopWorker();
    const next = startUpgradeWorker(
      agent.ctx,
      { registry: agent.ctx.workers, log: agent.ctx.log, retryMinMs: 20, retryMaxMs: 100 },
      runUpgradeJob,
      host('9.0.0'),
    );
    stopWorker = () => next.stop();
    await pollExchange(agent.ctx);
    next.wake();
    await expect.poll(async () => (await exchangeStatus('good'))?.status).toBe('successful');
    // softwareVersions follow the status (agent/upgrade/settle.ts): wait for that write too.
    const softwareVersions = async () =>
      (await server.http('GET', '/v1/orgs/acme/nodes/n1', { auth: admin })).body.nodes['acme/n1']
        .softwareVersions;
    await expect.poll(softwareVersions).toMatchObject({ horizon: '9.0.0' });
    // The previous executable goes once the status is written (cleanup after the answer).
    await expect.poll(() => existsSync(`${executable}.previous`)).toBe(false);

    // The new agent runs the other jobs: both refused before anything is swapped.
    await expect.poll(async () => (await exchangeStatus('altered'))?.status).toBe('failed');
    await expect.poll(async () => (await exchangeStatus('stranger'))?.status).toBe('failed');
    expect(readFileSync(executable).equals(good)).toBe(true);
    expect((await exchangeStatus('stranger')).errorMessage).toMatch(
      /not signed by a key pinned on this device/,
    );
    expect((await exchangeStatus('altered')).errorMessage).toMatch(/does not match the manifest's SHA-256/);
    expect(existsSync(jobFile('stranger'))).toBe(false);
    expect(existsSync(jobFile('altered'))).toBe(false);
    expect(existsSync(`${jobFile('altered')}.part`)).toBe(false);

    const events = (await agent.app.inject({ method: 'GET', url: '/eventlog/all' })).json() as {
      event_code: string;
      message: string;
    }[];
    expect(events.filter((e) => e.event_code === 'node_management_upgrade_failed').length).toBe(2);
    for (const code of ['node_management_upgrade_downloaded', 'node_management_upgrade_successful'])
      expect(events.some((e) => e.event_code === code)).toBe(true);
  });
});
