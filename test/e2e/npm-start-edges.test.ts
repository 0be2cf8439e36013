import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allFree, freeBadPorts, freePorts, occupy } from '#test/support/launcher';
import { httpRequest } from '../../scripts/local/http-request.ts';
import { expectOneClearMessage, useLaunches } from './support/launches.ts';
import { prebuiltFunctions } from './support/prebuilt.ts';

/**
 * `npm start` (scripts/start-local.ts) on a WHATWG "bad" port, on the e2e project's build of the
 * functions (prebuilt.ts), and its refusals, each one clear message: a port in use, a data dir that
 * is a file, a corrupt DynamoDB file, no Java, an EXCHANGE_DYNAMODB_ENDPOINT that is no address.
 * (npm-start.test.ts: the first start, its build and a restart.)
 */
const STARTUP_MS = 240_000;
const { start, stop, tempDir } = useLaunches();

describe('npm start (scripts/start-local.ts): a bad port, and refusals', () => {
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

  it('explains a data dir that is a file, a corrupt DynamoDB file, a missing Java and a bad DynamoDB address', async () => {
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

    const badEndpoint = start({
      ...portsEnv,
      EXCHANGE_DATA_DIR: join(parent, 'endpoint'),
      EXCHANGE_DYNAMODB_ENDPOINT: 'localhost:8000',
    });
    expect(await badEndpoint.exited).toBe(1);
    expectOneClearMessage(
      badEndpoint.output(),
      'EXCHANGE_DYNAMODB_ENDPOINT must be an http(s) address',
      "'localhost:8000'",
    );
    expect(await allFree([ports.http, ports.http + 1, ports.dynamo])).toBe(true);
  }, 60_000);
});
