import { describe, expect, it } from 'vitest';
import { freePorts, type Launched } from '#test/support/launcher';
import { httpRequest } from '../../scripts/local/http-request.ts';
import { isRequestLine } from '../../scripts/local/request-lines.ts';
import { useLaunches } from './support/launches.ts';
import { prebuiltFunctions } from './support/prebuilt.ts';

/**
 * `npm start`'s terminal (issue 28): serverless-offline's per-request lines are hidden unless
 * EXCHANGE_LOG_REQUESTS=1, so the banner with the URL and the root credentials stays on screen.
 * On the run's prebuilt functions (test/e2e/npm-start.test.ts starts `npm start` once with its own
 * build).
 */
const STARTUP_MS = 240_000;
const launches = useLaunches();

/** Starts the stack (agbot included: its rounds are what an idle stack requests) and waits for the banner. */
async function startStack(extra: Record<string, string>): Promise<{ launched: Launched; base: string }> {
  const dir = launches.tempDir();
  const ports = await freePorts();
  const launched = launches.start({
    ...prebuiltFunctions(),
    EXCHANGE_DATA_DIR: dir,
    EXCHANGE_PORT: String(ports.http),
    EXCHANGE_DYNAMODB_PORT: String(ports.dynamo),
    ...extra,
  });
  await launched.waitFor(/Press Ctrl-C to stop\./, STARTUP_MS);
  return { launched, base: `http://127.0.0.1:${ports.http}/v1` };
}

const ROUTE_LINE = /^ANY \/v1\/\S+ \(λ: \w+\)$/m;
const INVOCATION_LINE = /^\(λ: \w+\) RequestId: /m;

describe('npm start output', () => {
  it('tells request lines from the rest', () => {
    for (const line of [
      '',
      'ANY /v1/orgs/IBM/agbots/agbot/businesspols (λ: agbots)',
      '(λ: agbots) RequestId: 2a52dfb3-7b27-447d-aaf9-4ca39fd0d3e2  Duration: 85.51 ms  Billed Duration: 86 ms',
      '\u001b[90m(λ: changes) RequestId: 9a46d348  Duration: 1085.78 ms  Billed Duration: 1086 ms\u001b[39m',
      'received connection',
      'Successfully invoked scheduled function: [agbotRound]',
    ])
      expect(isRequestLine(line), line).toBe(true);
    for (const line of [
      '{"level":"ERROR","message":"unhandled error","status":500}',
      '{"level":"WARN","message":"slow request"}',
      '✖ Unhandled exception in handler',
      'Warning: something to know',
    ])
      expect(isRequestLine(line), line).toBe(false);
  });

  it(
    'shows the banner and the agbot but no request lines by default; EXCHANGE_LOG_REQUESTS=1 shows them',
    async () => {
      const quiet = await startStack({});
      // The in-stack agbot's own line (its first round, invoked at start), not serverless-offline's.
      await quiet.launched.waitFor(/"msg":"agbot rounds"/, 60_000);
      for (let i = 0; i < 3; i += 1) {
        expect((await httpRequest(`${quiet.base}/admin/version`)).status).toBe(200);
      }
      // Stopped and exited: whatever our requests and the agbot's rounds printed is in the output.
      quiet.launched.child.kill('SIGINT');
      expect(await quiet.launched.exited).toBe(0);
      const output = quiet.launched.output();
      expect(output).toContain('Root credentials: root/root:');
      expect(output).not.toMatch(ROUTE_LINE);
      expect(output).not.toMatch(/Successfully invoked scheduled function/);
      expect(output).not.toMatch(INVOCATION_LINE);

      const loud = await startStack({ EXCHANGE_LOG_REQUESTS: '1', EXCHANGE_AGBOT: 'off' });
      expect((await httpRequest(`${loud.base}/admin/version`)).status).toBe(200);
      await loud.launched.waitFor(/^ANY \/v1\/admin\/version \(λ: \w+\)$/m, 30_000);
      await loud.launched.waitFor(INVOCATION_LINE, 30_000);
    },
    2 * STARTUP_MS + 120_000,
  );
});
