import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { basicAuthHeader } from '#lib/auth/basic';
import { allFree, freePorts } from '#test/support/launcher';
import { httpRequest } from '../../scripts/local/http-request.ts';
import { useLaunches } from './support/launches.ts';
import { prebuiltFunctions } from './support/prebuilt.ts';

/**
 * `npm start` (scripts/start-local.ts) as a user runs it: the first start builds the functions as
 * it does for a user, into a folder of its own that it removes when it stops; the second start,
 * whose subject is the data kept across a restart, runs the e2e project's build of the same
 * functions (prebuilt.ts). Its refusals and a start on a "bad"
 * port are in npm-start-edges.test.ts (a file of their own, so the two run side by side).
 */
const STARTUP_MS = 240_000;
/** The first start builds every function, then loads them: the launcher's own bound (scripts/local/offline.ts). */
const FIRST_START_MS = 600_000;
const { start, stop, tempDir } = useLaunches();

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
      const [, password = ''] = await first.waitFor(/Root credentials: root\/root:(\S+)/, FIRST_START_MS);
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
      expect(first.output()).toMatch(/Built the Exchange's functions in [\d.]+ s/);
      expect(await stop(first)).toBe(0);
      expect(await allFree([ports.http, ports.http + 1, ports.dynamo])).toBe(true);
      // Its build went with it.
      const ownBuild = `start-${first.child.pid}-`;
      expect(readdirSync('.esbuild').filter((name) => name.startsWith(ownBuild))).toEqual([]);

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
    FIRST_START_MS + STARTUP_MS + 60_000,
  );
});
