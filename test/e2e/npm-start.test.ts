import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { basicAuthHeader } from '#lib/auth/basic';
import { allFree, freeBadPorts, freePorts, type Launched, launch, occupy } from '#test/support/launcher';
import { httpRequest } from '../../scripts/local/http-request.ts';
import { prebuiltFunctions } from './support/prebuilt.ts';

/**
 * `npm start` (scripts/start-local.ts) as a user runs it. The first start builds the functions as
 * it does for a user; the later starts, whose subject is not the build (data kept across a
 * restart, a "bad" port), run the e2e project's build of the same functions (prebuilt.ts).
 */
const STARTUP_MS = 240_000;
const running: Launched[] = [];
const tempDirs: string[] = [];

const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'exchange-launcher-'));
  tempDirs.push(dir);
  return dir;
};

afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

afterEach(async () => {
  // A failed assertion must not leave a stack running.
  for (const launched of running.splice(0)) {
    if (launched.child.exitCode === null) {
      launched.child.kill('SIGINT');
      await launched.exited;
    }
  }
});

function start(env: Record<string, string>): Launched {
  const launched = launch(env);
  running.push(launched);
  return launched;
}

async function stop(launched: Launched): Promise<number | null> {
  launched.child.kill('SIGINT');
  return launched.exited;
}

const expectOneClearMessage = (output: string, ...fragments: string[]) => {
  for (const fragment of fragments) expect(output).toContain(fragment);
  expect(output).not.toMatch(/^\s+at /m); // no stack trace
};

describe('npm start (scripts/start-local.ts)', () => {
  it(
    'serves the Exchange, prints the root credentials, reuses the generated password and stops on SIGINT',
    async () => {
      const dataDir = tempDir();
      const ports = await freePorts();
      const env = {
        EXCHANGE_DATA_DIR: dataDir,
        EXCHANGE_PORT: String(ports.http),
        EXCHANGE_DYNAMODB_PORT: String(ports.dynamo),
      };
      const base = `http://localhost:${ports.http}/v1`;

      const first = start(env);
      const [, password = ''] = await first.waitFor(/Root credentials: root\/root:(\S+)/, STARTUP_MS);
      expect(first.output()).toContain(`listening on ${base}`);
      expect(readFileSync(join(dataDir, 'root-password'), 'utf8').trim()).toBe(password);
      expect(statSync(join(dataDir, 'root-password')).mode & 0o777).toBe(0o600);
      const version = await httpRequest(`${base}/admin/version`);
      expect(version.status).toBe(200);
      expect(version.text).toBe('2.154.0\n');
      const auth = { authorization: basicAuthHeader('root/root', password) };
      const status = await httpRequest(`${base}/admin/status`, { headers: auth });
      expect(status.status).toBe(200);
      expect((JSON.parse(status.text) as { numberOfOrganizations: number }).numberOfOrganizations).toBe(2);
      const versions = { agentSoftwareVersions: ['9.9.9'], agentConfigVersions: [], agentCertVersions: [] };
      const put = await httpRequest(`${base}/orgs/IBM/AgentFileVersion`, {
        method: 'PUT',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(versions),
      });
      expect(put.status).toBe(201);
      // The agbot runs in the stack (its function's first round), and it published its messaging key;
      // its token is kept sealed in the table, not in a file.
      await first.waitFor(/"msg":"agbot rounds"/, 60_000);
      const agbot = await httpRequest(`${base}/orgs/IBM/agbots/agbot`, { headers: auth });
      const record = JSON.parse(agbot.text) as { agbots: Record<string, { publicKey: string }> };
      expect(record.agbots['IBM/agbot']?.publicKey).toMatch(/^MIIBIjAN/);
      expect(existsSync(join(dataDir, 'agbot-token'))).toBe(false);
      // The secrets manager's local master key: generated into the data dir (0600), never printed;
      // a secret written now must read back after the restart (the same key is reused).
      const keyFile = join(dataDir, 'secrets-master-key');
      const masterKey = readFileSync(keyFile, 'utf8').trim();
      expect(Buffer.from(masterKey, 'base64').length).toBe(32);
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      const secretsAdmin = { authorization: basicAuthHeader('IBM/secadmin', 'secadmin-pw-1') };
      const madeAdmin = await httpRequest(`${base}/orgs/IBM/users/secadmin`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ password: 'secadmin-pw-1', admin: true, email: 'secadmin@example.com' }),
      });
      expect(madeAdmin.status).toBe(201);
      const stored = await httpRequest(`${base}/orgs/IBM/secrets/launcher/check`, {
        method: 'PUT',
        headers: { ...secretsAdmin, 'content-type': 'application/json' },
        body: JSON.stringify({ key: 'k', value: 'launcher-secret-value' }),
      });
      expect(stored.status).toBe(201);
      expect(first.output()).not.toContain(masterKey);
      expect(first.output()).not.toContain('launcher-secret-value');
      expect(await stop(first)).toBe(0);
      expect(await allFree([ports.http, ports.http + 1, ports.dynamo])).toBe(true);

      // Second start: same password, same data.
      const second = start({ ...env, ...prebuiltFunctions() });
      const [, again] = await second.waitFor(/Root credentials: root\/root:(\S+)/, STARTUP_MS);
      expect(again).toBe(password);
      const kept = await httpRequest(`${base}/orgs/IBM/AgentFileVersion`, { headers: auth });
      expect(kept.status).toBe(200);
      expect((JSON.parse(kept.text) as { agentSoftwareVersions: string[] }).agentSoftwareVersions).toEqual([
        '9.9.9',
      ]);
      expect(readFileSync(keyFile, 'utf8').trim()).toBe(masterKey);
      const secret = await httpRequest(`${base}/orgs/IBM/secrets/launcher/check`, { headers: secretsAdmin });
      expect(JSON.parse(secret.text)).toEqual({ key: 'k', value: 'launcher-secret-value' });
      expect(await stop(second)).toBe(0);
      expect(await allFree([ports.http, ports.http + 1, ports.dynamo])).toBe(true);
    },
    2 * STARTUP_MS + 60_000,
  );

  it(
    'becomes ready on a WHATWG "bad port" such as 4190 (readiness is checked with node:http, not fetch)',
    async () => {
      const ports = await freeBadPorts();
      const env = {
        EXCHANGE_DATA_DIR: tempDir(),
        EXCHANGE_PORT: String(ports.http),
        EXCHANGE_DYNAMODB_PORT: String(ports.dynamo),
      };
      const launched = start({ ...env, ...prebuiltFunctions(), EXCHANGE_AGBOT: 'off' });
      await launched.waitFor(/Root credentials: root\/root:(\S+)/, STARTUP_MS);
      expect(launched.output()).toContain('No agbot (EXCHANGE_AGBOT=off).');
      const base = `http://127.0.0.1:${ports.http}/v1`;
      const version = await httpRequest(`${base}/admin/version`);
      expect(version.status).toBe(200);
      expect(version.text).toBe('2.154.0\n');
      // Why: fetch refuses this port even though the server answers.
      await expect(fetch(`${base}/admin/version`)).rejects.toThrow();
      expect(await stop(launched)).toBe(0);
      expect(await allFree([ports.http, ports.http + 1, ports.dynamo])).toBe(true);
    },
    STARTUP_MS + 60_000,
  );

  it('refuses a port in use with one clear message (API, Lambda API or DynamoDB port)', async () => {
    const dataDir = tempDir();
    const ports = await freePorts();
    const env = {
      EXCHANGE_DATA_DIR: dataDir,
      EXCHANGE_PORT: String(ports.http),
      EXCHANGE_DYNAMODB_PORT: String(ports.dynamo),
    };
    for (const [port, setting] of [
      [ports.http, 'EXCHANGE_PORT'],
      [ports.http + 1, 'EXCHANGE_PORT'],
      [ports.dynamo, 'EXCHANGE_DYNAMODB_PORT'],
    ] as const) {
      const blocker = await occupy(port);
      try {
        const launched = start(env);
        expect(await launched.exited).toBe(1);
        expectOneClearMessage(launched.output(), `Port ${port}`, 'already in use', `${setting}=<port>`);
      } finally {
        await new Promise((resolve) => blocker.close(resolve));
      }
    }
  }, 60_000);

  it('explains a data dir that is a file, a corrupt DynamoDB file, and a missing Java', async () => {
    const ports = await freePorts();
    const portsEnv = { EXCHANGE_PORT: String(ports.http), EXCHANGE_DYNAMODB_PORT: String(ports.dynamo) };
    const parent = tempDir();

    const file = join(parent, 'not-a-dir');
    writeFileSync(file, 'x');
    const notDir = start({ ...portsEnv, EXCHANGE_DATA_DIR: file });
    expect(await notDir.exited).toBe(1);
    expectOneClearMessage(notDir.output(), `${file} is not a directory`, 'EXCHANGE_DATA_DIR');

    const corrupt = join(parent, 'corrupt');
    mkdirSync(join(corrupt, 'dynamodb'), { recursive: true });
    writeFileSync(join(corrupt, 'dynamodb', 'shared-local-instance.db'), 'garbage, not SQLite'.repeat(100));
    const damaged = start({ ...portsEnv, EXCHANGE_DATA_DIR: corrupt });
    expect(await damaged.exited).toBe(1);
    expectOneClearMessage(damaged.output(), 'corrupt', 'Move it aside');

    // Only the directory of node itself on PATH: no java.
    const noJava = start({
      ...portsEnv,
      EXCHANGE_DATA_DIR: join(parent, 'fresh'),
      PATH: dirname(process.execPath),
    });
    expect(await noJava.exited).toBe(1);
    expectOneClearMessage(noJava.output(), 'Java was not found', 'openjdk-17-jre-headless');
    expect(await allFree([ports.http, ports.http + 1, ports.dynamo])).toBe(true);
  }, 60_000);
});
