/**
 * Fuzz suite of the agent's local API (issue 8): property-based tests (fast-check) that walk every
 * route the Fastify app registers (routesOf: a new route is covered without editing this file)
 * with hostile path values, query strings and bodies, through `inject()`.
 *
 * Every request: no 5xx; a 4xx answers JSON `{"error", ...}`; no secret (the node token, registry
 * tokens, passwords, agreement secrets) in any body; under 1 s. A refused request leaves the state
 * (the GET views, world.ts) as it was, and after the always-hostile walk the state is unchanged.
 * What a web page on the node's host could send (a rebinding Host, a foreign Origin, a form body)
 * is refused on every route, input-free writes included (api/request-guard.ts).
 *
 * Environment:
 * - `FUZZ_SEED` (default 20261123): the seed, printed at the start; a failure prints the seed and
 *   path that replay it (fast-check's `seed`/`path`).
 * - `FUZZ_RUNS` (default 500): requests per property, spread evenly over the routes; the default
 *   keeps the file at ~40 s here (under a minute on a busy machine). `npm run fuzz` sets it high.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../agent.ts';
import { routesOf } from '../app.ts';
import { anyBody, type FuzzRequest, hostileBody, requestTo, webPageRequestTo } from './hostile.ts';
import { snapshot, startWorld, stopWorld, type World } from './world.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 500);
const TIMEOUT_MS = Math.max(120_000, RUNS * 500);
console.log(`agent fuzz: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}`);

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Methods no route registers, sent to every pattern too (405 or OPTIONS' 200). */
const OTHER_METHODS = ['OPTIONS', 'PATCH', 'DELETE', 'PUT'];

type Route = { pattern: string; method: string };

/** Every (pattern, method) the app serves, plus methods it does not serve on those patterns. */
function routes(agent: Agent): Route[] {
  const out: Route[] = [];
  for (const [pattern, methods] of routesOf(agent.app)) {
    for (const method of methods) out.push({ pattern, method });
    for (const method of OTHER_METHODS) if (!methods.has(method)) out.push({ pattern, method });
  }
  return out.sort((a, b) => `${a.pattern} ${a.method}`.localeCompare(`${b.pattern} ${b.method}`));
}

async function send(agent: Agent, req: FuzzRequest) {
  const started = performance.now();
  const res = await agent.app.inject({
    method: req.method as 'GET',
    url: req.url,
    headers: req.headers,
    ...(req.body === undefined ? {} : { payload: req.body }),
  });
  return { res, ms: performance.now() - started };
}

const show = (req: FuzzRequest) =>
  `${req.method} ${req.url.slice(0, 200)} body=${(req.body ?? '').slice(0, 200)} (${(req.body ?? '').length} chars)`;

/** The checks every answer must pass, whatever was asked. */
function checkAnswer(
  world: World,
  req: FuzzRequest,
  res: Awaited<ReturnType<typeof send>>['res'],
  ms: number,
) {
  const what = `${show(req)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, what).toBeLessThan(500);
  expect(ms, `took ${Math.round(ms)} ms: ${what}`).toBeLessThan(1000);
  for (const secret of world.secrets)
    expect(res.body.includes(secret), `leaks a secret: ${what}`).toBe(false);
  if (res.statusCode >= 400 && req.method !== 'HEAD') {
    expect(res.headers['content-type'], what).toMatch(/^application\/json/);
    const body = JSON.parse(res.body) as { error?: unknown };
    expect(typeof body.error, what).toBe('string');
  }
}

/**
 * Writes that take no input at all (no path parameter, and a bare request is already accepted,
 * e.g. DELETE /node/userinput): nothing sent to them can be hostile, so the always-hostile walk
 * leaves them out. Found by sending each bare write to a fresh world of its own.
 */
async function inputFreeWrites(candidates: Route[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const { pattern, method } of candidates) {
    if (!WRITES.has(method) || pattern.includes(':')) continue;
    const world = await startWorld();
    try {
      const res = await world.agent.app.inject({ method: method as 'GET', url: pattern });
      if (res.statusCode < 300) found.add(`${method} ${pattern}`);
    } finally {
      await stopWorld(world);
    }
  }
  return found;
}

describe('agent local API under hostile input (fuzz)', () => {
  let world: World;
  let all: Route[];
  let inputFree: Set<string>;

  beforeAll(async () => {
    world = await startWorld();
    all = routes(world.agent);
    inputFree = await inputFreeWrites(all);
  });
  afterAll(() => stopWorld(world));

  it('walks every registered route (and knows which writes take no input)', () => {
    const patterns = new Set(all.map((r) => r.pattern));
    for (const pattern of ['/node', '/node/policy', '/attribute/:id', '/trust/:filename', '/eventlog/all'])
      expect(patterns).toContain(pattern);
    expect([...inputFree].sort()).toEqual(
      expect.arrayContaining(['DELETE /node', 'DELETE /node/policy', 'DELETE /node/userinput']),
    );
    console.log(
      `agent fuzz: ${all.length} route/method pairs; input-free writes: ${[...inputFree].join(', ')}`,
    );
  });

  it(
    'refuses always-hostile requests on every route: no 5xx, JSON errors, no secret, < 1 s, no trace',
    async () => {
      const before = await snapshot(world.agent);
      const walked = all.filter((r) => !inputFree.has(`${r.method} ${r.pattern}`));
      const perRoute = Math.max(1, Math.ceil(RUNS / walked.length));
      for (const [index, route] of walked.entries()) {
        await fc.assert(
          fc.asyncProperty(requestTo(route.pattern, route.method, hostileBody), async (req) => {
            const { res, ms } = await send(world.agent, req);
            checkAnswer(world, req, res, ms);
            if (WRITES.has(req.method))
              expect(res.statusCode, `accepted a hostile write: ${show(req)}`).toBeGreaterThanOrEqual(400);
            if (WRITES.has(req.method)) expect(await snapshot(world.agent), show(req)).toBe(before);
          }),
          { seed: SEED + index, numRuns: perRoute },
        );
      }
      expect(await snapshot(world.agent)).toBe(before);
    },
    TIMEOUT_MS,
  );

  it(
    'refuses what a web page on the host could send on every route, input-free writes included: a rebinding Host, a foreign Origin, a form body (403/415, no trace)',
    async () => {
      const before = await snapshot(world.agent);
      const perRoute = Math.max(1, Math.ceil(RUNS / all.length));
      for (const [index, route] of all.entries()) {
        await fc.assert(
          fc.asyncProperty(webPageRequestTo(route.pattern, route.method, anyBody), async (req) => {
            const { res, ms } = await send(world.agent, req);
            checkAnswer(world, req, res, ms);
            expect(
              [403, 415],
              `served a web page's request: ${show(req)} ${JSON.stringify(req.headers)}`,
            ).toContain(res.statusCode);
            if (WRITES.has(req.method)) expect(await snapshot(world.agent), show(req)).toBe(before);
          }),
          { seed: SEED + 2000 + index, numRuns: perRoute },
        );
      }
      expect(await snapshot(world.agent)).toBe(before);
    },
    TIMEOUT_MS,
  );

  it(
    'any input on every route, input-free writes included: no 5xx, JSON errors, no secret, < 1 s; a refusal leaves no trace',
    async () => {
      // A world of its own: requests here may legitimately change (or unregister) it.
      const own = await startWorld();
      try {
        const perRoute = Math.max(1, Math.ceil(RUNS / all.length));
        let state = await snapshot(own.agent);
        const statuses = new Map<string, number>();
        // Input-free writes last: DELETE /node unregisters, and the other routes should meet a registered node.
        const free = (r: Route) => inputFree.has(`${r.method} ${r.pattern}`);
        const ordered = [...all.filter((r) => !free(r)), ...all.filter(free)];
        for (const [index, route] of ordered.entries()) {
          await fc.assert(
            fc.asyncProperty(requestTo(route.pattern, route.method, anyBody), async (req) => {
              const { res, ms } = await send(own.agent, req);
              checkAnswer(own, req, res, ms);
              const kind = `${req.method === 'GET' || req.method === 'HEAD' ? 'read' : 'write'} ${res.statusCode}`;
              statuses.set(kind, (statuses.get(kind) ?? 0) + 1);
              if (!WRITES.has(req.method)) return;
              const after = await snapshot(own.agent);
              if (res.statusCode >= 400)
                expect(after, `a refused request changed the state: ${show(req)}`).toBe(state);
              state = after;
            }),
            { seed: SEED + 1000 + index, numRuns: perRoute },
          );
        }
        const counts = [...statuses].sort().map(([kind, n]) => `${kind}: ${n}`);
        console.log(`agent fuzz, any input: ${counts.join(', ')}`);
      } finally {
        await stopWorld(own);
      }
    },
    TIMEOUT_MS,
  );
});
