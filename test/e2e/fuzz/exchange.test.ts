/**
 * Property-based fuzzing of every route of our OpenAPI document, over the real HTTP stack
 * (serverless-offline + DynamoDB Local), against an org whose ids and names are maximal.
 *
 *   FUZZ_SEED=<int>  fast-check seed (default fixed, printed at the start)
 *   FUZZ_RUNS=<int>  number of generated requests (default 400)
 *
 * A failure lists each distinct problem with one request that shows it, and prints the command
 * that replays the run. See docs/development.md, "Fuzz tests".
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { sequencePendingChanges } from '#tables/feed/changes';
import type { Credentials } from '#test/support/http';
import { httpRequest } from '../../../scripts/local/http-request.ts';
import { useOffline } from '../support/offline.ts';
import { type MaxWorld, seedMaxWorld } from './max-world.ts';
import { fillTemplate, type Operation, operationsOf } from './operations.ts';
import { describeRequest, type FuzzRequest, fuzzRequests, namedAttacks } from './requests.ts';
import { fuzzRuns, fuzzSeed, replayCommand } from './settings.ts';
import { tableSnapshot } from './table-snapshot.ts';
import { answerProblems, LOCAL_HEAD_LIMIT, TIME_LIMIT_MS } from './verdict.ts';

const FILE = 'test/e2e/fuzz/exchange.test.ts';
/** Room for every request to be retried once at the time limit, plus the final Scan. */
const TEST_TIMEOUT_MS = 120_000 + fuzzRuns() * 2_000;
const server = useOffline();
let world: MaxWorld;
let operations: Operation[];
let seeded: Record<string, unknown>;

beforeAll(async () => {
  const root: Credentials = { user: 'root/root', secret: server.rootPassword };
  world = await seedMaxWorld(server.http, root);
  const document = await server.http('GET', '/v1/openapi.json');
  operations = operationsOf(document.body);
  // Load every function once (serverless-offline loads a handler on its first call), so the
  // time limit measures our code, not a cold start.
  for (const op of operations) {
    const values = Object.fromEntries(
      op.pathParams.map((p) => [p, encodeURIComponent(world.pathValues[p] ?? p)]),
    );
    await httpRequest(server.baseUrl, { method: op.method }, fillTemplate(op.template, values));
  }
  // The seeding writes recorded pending change rows; a reader of the feed numbers them, which is
  // not a write of the request: number them now, so the snapshot holds only what requests write.
  await sequencePendingChanges();
  seeded = await tableSnapshot();
}, 240_000);

/** The size of the request line and headers, as sent. */
const headBytes = (r: FuzzRequest) =>
  Buffer.byteLength(`${r.method} ${r.rawPath} HTTP/1.1\r\n`) +
  Object.entries(r.headers).reduce((sum, [k, v]) => sum + k.length + v.length + 4, 200);

interface Outcome {
  problems: string[];
  status: number;
  /** The start of the answer (for reports). */
  answer: string;
}

async function send(request: FuzzRequest): Promise<Outcome> {
  const options = { method: request.method, headers: request.headers, body: request.body, timeoutMs: 15_000 };
  let started = performance.now();
  let response: Awaited<ReturnType<typeof httpRequest>>;
  try {
    response = await httpRequest(server.baseUrl, options, request.rawPath);
  } catch (error) {
    // Over the local head limit Node answers 400 and closes at once; a client still writing a
    // large body may see the reset before the answer (the same refusal, seen from the client).
    const code = (error as NodeJS.ErrnoException).code;
    const reset = code === 'ECONNRESET' || code === 'EPIPE';
    if (reset && headBytes(request) > LOCAL_HEAD_LIMIT - 512)
      return { problems: [], status: 400, answer: '' };
    // A GET or HEAD carrying a large body: serverless-offline answers without reading it, and
    // Node closes the connection over the unread body, sometimes before a large answer is out
    // (docs/compatibility.md, "Local HTTP layer"; API Gateway refuses such requests itself).
    const bodyless = request.method === 'GET' || request.method === 'HEAD';
    if (
      bodyless &&
      Buffer.byteLength(request.body ?? '') > 64 * 1024 &&
      (reset || /aborted/.test(String(error)))
    )
      return { problems: [], status: 400, answer: '' };
    throw error;
  }
  let elapsed = performance.now() - started;
  if (elapsed > TIME_LIMIT_MS) {
    // Two cores shared with other work: a slow answer counts only if it is slow twice.
    started = performance.now();
    response = await httpRequest(server.baseUrl, options, request.rawPath);
    elapsed = performance.now() - started;
  }
  if (headBytes(request) > LOCAL_HEAD_LIMIT - 512) {
    // Over Node's 16 KB header limit the local HTTP layer answers an empty 400 before any
    // handler (docs/compatibility.md, "Local HTTP layer"; local-http-layer.test.ts pins it).
    if (response.status === 400 && response.text === '') return { problems: [], status: 400, answer: '' };
  }
  const answer = `${response.status} ${response.text.slice(0, 200)}`;
  const problems = answerProblems(response, elapsed, world.secrets);
  if (request.writes && response.status < 300) problems.push('a generated write succeeded');
  if (request.expectStatus !== undefined && response.status !== request.expectStatus)
    problems.push(`expected ${request.expectStatus}, got ${response.status}`);
  return { problems, status: response.status, answer };
}

describe('fuzzing every route of GET /v1/openapi.json with hostile input', () => {
  it(
    'never answers 5xx, always {code,msg} on 4xx, leaks nothing, answers within 3 s, writes nothing',
    async () => {
      const seed = fuzzSeed();
      const runs = fuzzRuns();
      const named = namedAttacks(operations, world).length;
      console.log(
        `fuzz: seed ${seed}, ${named} named attacks then ${runs} generated requests over ${operations.length} operations`,
      );
      const found = new Map<string, string>();
      const statuses = new Map<number, number>();
      let stopped: string | undefined;
      try {
        await fc.assert(
          fc.asyncProperty(fuzzRequests(operations, world), async (request) => {
            let outcome: Outcome;
            try {
              outcome = await send(request);
            } catch (error) {
              outcome = { problems: [`no answer: ${(error as Error).message}`], status: 0, answer: '' };
            }
            statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
            for (const problem of outcome.problems) {
              const key = `${request.operation}: ${problem}`;
              if (!found.has(key)) found.set(key, `${describeRequest(request)}\n  answer: ${outcome.answer}`);
            }
            // A server that stopped answering (blocked, or gone) makes every later request useless.
            return outcome.status !== 0;
          }),
          {
            seed,
            // fast-check counts the examples among the runs: FUZZ_RUNS stays the generated ones.
            numRuns: named + runs,
            endOnFailure: true,
            examples: namedAttacks(operations, world).map((request) => [request]),
          },
        );
      } catch (error) {
        stopped = (error as Error).message.split('\n').slice(0, 3).join('\n');
      }
      console.log(`fuzz: statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
      const report = [...found].map(([key, request]) => `- ${key}\n${request}`).join('\n');
      expect.soft(stopped, `the server stopped answering: ${stopped}`).toBeUndefined();
      expect
        .soft(found.size, `${found.size} problems:\n${report}\nReplay: ${replayCommand(FILE, seed, runs)}`)
        .toBe(0);
      expect(
        await tableSnapshot(),
        `the seeded world changed. Replay: ${replayCommand(FILE, seed, runs)}`,
      ).toEqual(seeded);
    },
    TEST_TIMEOUT_MS,
  );
});
