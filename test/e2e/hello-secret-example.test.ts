import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts, type Launched, launch } from '#test/support/launcher';
import { reachableEngine } from '../../agent/test-support/engine.ts';
import { LABELS } from '../../agent/workloads/container-spec.ts';
import { freePort } from '../../scripts/local/ports.ts';
import { run } from './support/device-kit.ts';
import { prebuiltFunctions, useTheRunsDynamoDb } from './support/prebuilt.ts';

/**
 * The README's "Deploy your first service", run as a newcomer would (issues 14 and 16): `npm start`
 * (here on free ports and its own data dir) and `examples/hello-secret/run.sh`, which drives the
 * real `hzn` (key create, signed publish the agent verifies, deployment policy, secret add,
 * register, agreement list, secret change, eventlog, unregister -f). Skipped without an engine.
 */
const docker = await reachableEngine();
const ROOT_PW = 'hello-example-root-pw';
let launched: Launched | undefined;
let dataDir: string;
let exchangePort: number;

/** On a failure, what the agent and the agbot said: both go with the test's folder afterwards. */
function diagnostics(): string {
  const agentLog = join(dataDir, 'example', 'agent.log');
  const agent = existsSync(agentLog) ? readFileSync(agentLog, 'utf8').split('\n').slice(-80).join('\n') : '';
  const agbot = (launched?.output() ?? '')
    .split('\n')
    .filter((line) => /agbot|agreement|cancel/i.test(line))
    .slice(-80)
    .join('\n');
  return `\n--- the agent's log (last 80 lines) ---\n${agent}\n--- npm start's agreement lines ---\n${agbot}`;
}

describe.skipIf(!docker)('examples/hello-secret/run.sh against npm start', () => {
  const theRunsDynamoDb = useTheRunsDynamoDb();

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'hello-example-'));
    const ports = await freePorts();
    exchangePort = ports.http;
    launched = launch({
      ...prebuiltFunctions(),
      ...theRunsDynamoDb,
      EXCHANGE_DATA_DIR: join(dataDir, 'stack'),
      EXCHANGE_PORT: String(ports.http),
      EXCHANGE_DYNAMODB_PORT: String(ports.dynamo),
      EXCHANGE_ROOT_PW: ROOT_PW,
      HZN_AGBOT_POLL_SECONDS: '1',
      HZN_AGBOT_PORT: String(await freePort()),
    });
    await launched.waitFor(/Press Ctrl-C to stop/, 240_000);
  });

  afterAll(async () => {
    if (launched && launched.child.exitCode === null) {
      launched.child.kill('SIGINT');
      await launched.exited;
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('deploys the service, shows the secret, changes it, and leaves nothing running', async () => {
    // Run without blocking this worker's event loop (a minute and more: vitest's worker must
    // keep answering its runner, and fails the run after 60 s without an answer).
    const ran = await run('examples/hello-secret/run.sh', [], {
      timeoutMs: 400_000,
      env: {
        ...process.env,
        HZN_EXCHANGE_URL: `http://127.0.0.1:${exchangePort}/v1`,
        EXCHANGE_ROOT_PW: ROOT_PW,
        HORIZON_URL: `http://127.0.0.1:${await freePort()}`,
        HELLO_SECRET_DIR: join(dataDir, 'example'),
        HZN_ORG_ID: 'hello',
        // The e2e run built dist/agent.mjs once (functions-build.ts); rebuilding it here could
        // rewrite it while another file's agent starts from it.
        HELLO_SECRET_AGENT_BUILT: '1',
      },
    });
    const output = ran.output;
    expect(ran.status, `${output}${diagnostics()}`).toBe(0);
    expect(output).toContain('"value":"hello from the secrets manager"');
    expect(output).toContain('"value":"a new greeting"');
    expect(output).toMatch(/"current_agreement_id": "[0-9a-f]{64}"/);
    expect(output).toContain('Workload service containers for hello/hello-secret are up and running.');
    // Nothing of its agreements is left (other test files may run containers on the same engine).
    const ours = new Set(output.match(/[0-9a-f]{64}/g) ?? []);
    expect(ours.size).toBeGreaterThan(0);
    const left =
      (await docker?.listContainers({ all: true, filters: { label: [LABELS.agreementId] } })) ?? [];
    expect(left.filter((c) => ours.has(c.Labels[LABELS.agreementId] ?? ''))).toEqual([]);
  }, 480_000);
});
