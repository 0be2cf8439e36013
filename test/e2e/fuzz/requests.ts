import fc from 'fast-check';
import { basicAuthHeader } from '#lib/auth/basic';
import {
  bodyContentType,
  hostileAuthorization,
  hostileBody,
  hostileQueryName,
  hostileQueryValue,
  hostileSegment,
  RAW_QUERY_VALUES,
} from './hostile.ts';
import type { MaxWorld } from './max-world.ts';
import { fillTemplate, type Operation } from './operations.ts';

/** One generated request, in wire form. */
export interface FuzzRequest {
  /** `METHOD template` (for reports). */
  operation: string;
  method: string;
  /** A write (or a storing read): it must not succeed. */
  writes: boolean;
  /** Path and query exactly as sent. */
  rawPath: string;
  headers: Record<string, string>;
  body?: string;
  /** Who calls: a role of the seeded world, or `hostile`. */
  caller: string;
  /** The one status a named attack must get (e.g. 409 for a shadowing create). */
  expectStatus?: number;
}

const enc = encodeURIComponent;

function validCallers(world: MaxWorld): [string, string][] {
  const header = (c: { user: string; secret: string }) => basicAuthHeader(c.user, c.secret);
  return [
    ['root', header(world.root)],
    ['org admin', header(world.admin)],
    ['user', header(world.user)],
    ['node', header(world.node)],
    ['agbot', header(world.agbot)],
  ];
}

const queryString = (pairs: [string, string][]) =>
  pairs.length === 0 ? '' : `?${pairs.map(([name, value]) => `${enc(name)}=${value}`).join('&')}`;

/**
 * Requests on `operations` with hostile input. Valid callers are mixed in so deep handlers run;
 * no generated request may succeed at a write (the world must stay as seeded):
 * - a write with a body always sends a body the schema refuses (hostile.ts);
 * - a write without a body, from a valid caller, always names a record that does not exist
 *   (one path value is hostile), and is anonymous when the route has no path parameter;
 * - dot segments (which the local HTTP layer resolves to another route) only go to reads.
 */
export function fuzzRequests(operations: Operation[], world: MaxWorld): fc.Arbitrary<FuzzRequest> {
  const callers = validCallers(world);
  return fc.constantFrom(...operations).chain((op) => {
    const segment = (name: string) =>
      fc.oneof(
        { weight: 3, arbitrary: fc.constant({ value: enc(world.pathValues[name] ?? name), hostile: false }) },
        { weight: 2, arbitrary: hostileSegment(!op.writes).map((value) => ({ value, hostile: true })) },
      );
    const declared = fc
      .subarray(op.queryParams)
      .chain((names) =>
        fc.tuple(...names.map((name) => hostileQueryValue.map((v): [string, string] => [name, enc(v)]))),
      );
    const extra = fc.option(
      fc.tuple(hostileQueryName, fc.oneof(hostileQueryValue.map(enc), fc.constantFrom(...RAW_QUERY_VALUES))),
      { freq: 4 },
    );
    const caller = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...callers).map(([name, header]) => ({ name, header })) },
      { weight: 2, arbitrary: hostileAuthorization.map((header) => ({ name: 'hostile', header })) },
    );
    return fc
      .record({
        segments: fc.tuple(...op.pathParams.map(segment)),
        fallback: hostileSegment(false),
        declared,
        extra,
        caller,
        body: op.hasBody
          ? hostileBody.map((b) => b as string | undefined)
          : fc.option(hostileBody, { freq: 5 }),
        contentType: bodyContentType,
      })
      .map((plan): FuzzRequest => {
        const values: Record<string, string> = {};
        op.pathParams.forEach((name, i) => {
          values[name] = plan.segments[i]?.value ?? '';
        });
        let { caller } = plan;
        const valid = caller.name !== 'hostile';
        const namesRecord = plan.segments.length > 0 && plan.segments.every((s) => !s.hostile);
        if (op.writes && !op.hasBody && valid && namesRecord) {
          const last = op.pathParams.at(-1);
          if (last) values[last] = plan.fallback;
        }
        if (op.writes && !op.hasBody && valid && op.pathParams.length === 0) {
          caller = { name: 'hostile', header: undefined };
        }
        const query = [...plan.declared, ...(plan.extra ? [plan.extra] : [])];
        const headers: Record<string, string> = {};
        if (caller.header !== undefined) headers.authorization = caller.header;
        if (plan.body !== undefined && plan.contentType) headers['content-type'] = plan.contentType;
        return {
          operation: `${op.method} ${op.template}`,
          method: op.method,
          writes: op.writes,
          rawPath: fillTemplate(op.template, values) + queryString(query),
          headers,
          body: plan.body ?? undefined,
          caller: caller.name,
        };
      });
  });
}

/** A short description of a request (long values cut), for failure reports. */
export function describeRequest(request: FuzzRequest): string {
  const cut = (text: string, max: number) =>
    text.length > max ? `${text.slice(0, max)}...(${text.length} chars)` : text;
  const auth = request.headers.authorization;
  return [
    `${request.method} ${cut(request.rawPath, 300)}`,
    `  operation: ${request.operation}; caller: ${request.caller}`,
    `  authorization: ${auth === undefined ? '(none)' : cut(auth, 80)}`,
    `  content-type: ${request.headers['content-type'] ?? '(none)'}`,
    `  body: ${request.body === undefined ? '(none)' : cut(JSON.stringify(request.body), 200)}`,
  ].join('\n');
}

/** The seeded, valid value of every path parameter of `op`, encoded. */
const seededValues = (op: Operation, world: MaxWorld) =>
  Object.fromEntries(op.pathParams.map((name) => [name, enc(world.pathValues[name] ?? name)]));

const TEN_KB_IDENTITY = `Basic ${Buffer.from(`${'x'.repeat(10 * 1024)}/user:pw`).toString('base64')}`;
const NAMED_QUERY_ATTACKS = ['constructor', '__proto__', 'toString', 'tokenHash', `${'%a'.repeat(20)}b`];

/**
 * The attacks issue 8 names, on every route, run before the random ones (fast-check `examples`):
 * a 10 KB identity on every operation, and each named query value in each query parameter of
 * every read, asked by root on the seeded records (the random mix reaches these rarely).
 */
export function namedAttacks(operations: Operation[], world: MaxWorld): FuzzRequest[] {
  const rootHeader = validCallers(world)[0]?.[1] ?? '';
  const request = (
    op: Operation,
    query: [string, string][],
    caller: string,
    header: string,
  ): FuzzRequest => ({
    operation: `${op.method} ${op.template}`,
    method: op.method,
    writes: op.writes,
    rawPath: fillTemplate(op.template, seededValues(op, world)) + queryString(query),
    headers: { authorization: header },
    caller,
  });
  const identities = operations.map((op) => request(op, [], 'hostile', TEN_KB_IDENTITY));
  // One list per named value, the wildcard last: a backtracking matcher blocks the whole server,
  // and every other attack should be reported before that happens.
  const byValue = NAMED_QUERY_ATTACKS.map((value) =>
    operations
      .filter((op) => !op.writes)
      .flatMap((op) => op.queryParams.map((name) => request(op, [[name, enc(value)]], 'root', rootHeader))),
  );
  return [...identities, ...byValue.flat(), ...issue23Attacks(world)];
}

/**
 * Issue 23's attacks: a plain user's agbot serving another org and reading secrets through it
 * (403, nothing written); creates that would shadow another kind's identity (409, nothing
 * written); change-feed reads that would walk the whole feed (a future or a far past
 * `lastUpdated`, an org list of 1,000 orgs; root reads, so nothing is written).
 */
function issue23Attacks(world: MaxWorld): FuzzRequest[] {
  const header = (c: { user: string; secret: string }) => basicAuthHeader(c.user, c.secret);
  const idOf = (c: { user: string }) => c.user.split('/')[1] ?? '';
  const org = enc(world.org);
  const nodeBody = { token: 'shadow-token', name: 'n', pattern: '', publicKey: '', arch: 'amd64' };
  const json = (
    operation: string,
    rawPath: string,
    caller: [string, { user: string; secret: string }],
    body: unknown,
    extra: Partial<FuzzRequest>,
  ): FuzzRequest => ({
    operation,
    method: operation.split(' ')[0] ?? 'POST',
    writes: true,
    rawPath,
    headers: { authorization: header(caller[1]), 'content-type': 'application/json' },
    body: JSON.stringify(body),
    caller: caller[0],
    ...extra,
  });
  const shadow = { expectStatus: 409 };
  const changes = 'POST /v1/orgs/{organization}/changes';
  // Reads of the feed store nothing for root (no heartbeat): they may succeed.
  const feed = { writes: false };
  const agbotPath = `/v1/orgs/${org}/agbots/${enc(idOf(world.agbot))}`;
  const get = (operation: string, rawPath: string, caller: [string, { user: string; secret: string }]) => ({
    operation,
    method: 'GET',
    writes: false,
    rawPath,
    headers: { authorization: header(caller[1]) },
    caller: caller[0],
    expectStatus: 403,
  });
  return [
    // A plain user's agbot declares another org's pattern, then reads secrets through it.
    json(
      'POST /v1/orgs/{organization}/agbots/{agreementbot}/deployment/patterns',
      `${agbotPath}/deployment/patterns`,
      ['user', world.user],
      { patternOrgid: 'IBM', pattern: 'z', nodeOrgid: 'IBM' },
      { expectStatus: 403 },
    ),
    get('GET /v1/orgs/{organization}/allsecrets', `/v1/orgs/${org}/allsecrets?details=true`, [
      'agbot',
      world.agbot,
    ]),
    get('GET /v1/orgs/{organization}/secrets/{secret}', `/v1/orgs/${org}/secrets/user/u/x?policy=p`, [
      'agbot',
      world.agbot,
    ]),
    json(
      'PUT /v1/orgs/{organization}/nodes/{node}',
      `/v1/orgs/${org}/nodes/${enc(idOf(world.admin))}`,
      ['user', world.user],
      nodeBody,
      shadow,
    ),
    json(
      'PUT /v1/orgs/{organization}/nodes/{node}',
      `/v1/orgs/${org}/nodes/${enc(idOf(world.agbot))}`,
      ['org admin', world.admin],
      nodeBody,
      shadow,
    ),
    json(
      'PUT /v1/orgs/{organization}/agbots/{agreementbot}',
      `/v1/orgs/${org}/agbots/${enc(idOf(world.admin))}`,
      ['user', world.user],
      { token: 'shadow-token', name: 'a', publicKey: 'k' },
      shadow,
    ),
    json(
      'POST /v1/orgs/{organization}/users/{username}',
      `/v1/orgs/${org}/users/${enc(idOf(world.node))}`,
      ['org admin', world.admin],
      { password: 'shadow-pw', email: 'x@example.com', admin: false },
      shadow,
    ),
    json(
      changes,
      `/v1/orgs/${org}/changes`,
      ['root', world.root],
      { lastUpdated: '2999-01-01T00:00:00Z', maxRecords: 1 },
      feed,
    ),
    json(
      changes,
      `/v1/orgs/${org}/changes`,
      ['root', world.root],
      { lastUpdated: '1970-01-01T00:00:00Z', maxRecords: 1 },
      feed,
    ),
    json(
      changes,
      `/v1/orgs/${org}/changes`,
      ['root', world.root],
      { changeId: 1, maxRecords: 10_000, orgList: Array.from({ length: 1000 }, (_, i) => `o${i}`) },
      feed,
    ),
  ];
}
