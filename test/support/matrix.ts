import { expect, it } from 'vitest';
import type { Credentials, Http } from './http.ts';
import { checkResponse } from './openapi.ts';
import type { Fixtures, OrgWorld } from './world.ts';

/**
 * The authorization matrix: per endpoint, the status each caller gets. `same` is the org the
 * request targets; `other` is a second org with the same cast. Root and the hub admin live in
 * org `root`, so for them `same` is another org; their "(same org)" keys target org `root`.
 */
export type CallerKey =
  | 'anonymous'
  | 'wrong password'
  | 'root'
  | 'hub admin'
  // the same two, on their own org `root`
  | 'root (same org)'
  | 'hub admin (same org)'
  // endpoints that name no org
  | 'org admin'
  | 'user'
  | 'node'
  | 'agbot'
  // endpoints under /v1/orgs/{organization}
  | 'org admin (same org)'
  | 'org admin (other org)'
  | 'user (same org)'
  | 'user (same org, owner)'
  | 'user (same org, not owner)'
  | 'user (self)'
  | 'user (other org)'
  | 'node (same org)'
  | 'node (itself)'
  | 'node (same org, another)'
  | 'node (other org)'
  | 'agbot (same org)'
  // agbot endpoints: the target agbot itself, or another agbot of its org
  | 'agbot (itself)'
  | 'agbot (same org, another)'
  | 'agbot (other org)'
  // an agbot of org IBM, which may act on every org (a matrix that needs it sets `multiTenantAgbot`)
  | 'agbot (multi-tenant)';

export interface World extends Fixtures {
  hubAdmin: Credentials;
  same: OrgWorld;
  other: OrgWorld;
  /** A plain user of `same` that user endpoints read (never changed by a case). */
  targetUser: Credentials;
  /** An agbot of org IBM, made by the matrices that list `agbot (multi-tenant)`. */
  multiTenantAgbot?: Credentials;
}

export interface Prepared {
  path: string;
  body?: unknown;
  query?: Record<string, string>;
  /** The caller's credentials when they depend on the target (the node itself, the user itself). */
  as?: Credentials;
}

export interface EndpointCases {
  /** `METHOD /template` as in upstream's OpenAPI document (also the key of its response schema). */
  operation: string;
  /** Shown after the operation when one operation has several tables (e.g. "missing node"). */
  variant?: string;
  /** Sets up the target state this case needs (fresh records for cases that change state). */
  prepare: (world: World, caller: CallerKey) => Promise<Prepared> | Prepared;
  expect: Partial<Record<CallerKey, number>>;
}

function defaultCredentials(w: World, caller: CallerKey): Credentials | undefined {
  const table: Record<CallerKey, Credentials | undefined> = {
    anonymous: undefined,
    'wrong password': { user: w.same.user.user, secret: 'not-the-password' },
    root: w.root,
    'hub admin': w.hubAdmin,
    'root (same org)': w.root,
    'hub admin (same org)': w.hubAdmin,
    'org admin': w.same.admin,
    user: w.same.user,
    node: w.same.node,
    agbot: w.same.agbot,
    'org admin (same org)': w.same.admin,
    'org admin (other org)': w.other.admin,
    'user (same org)': w.same.user,
    'user (same org, owner)': w.same.user,
    'user (same org, not owner)': w.same.user2,
    'user (self)': w.targetUser,
    'user (other org)': w.other.user,
    'node (same org)': w.same.node,
    'node (itself)': w.same.node,
    'node (same org, another)': w.same.node2,
    'node (other org)': w.other.node,
    'agbot (same org)': w.same.agbot,
    'agbot (itself)': w.same.agbot,
    'agbot (same org, another)': w.same.agbot2,
    'agbot (other org)': w.other.agbot,
    'agbot (multi-tenant)': w.multiTenantAgbot,
  };
  return table[caller];
}

const ERROR_CODES: Record<number, string> = {
  400: 'invalid-input',
  401: 'invalid-credentials',
  403: 'access-denied',
};

/** `GET /v1/orgs/{organization}/nodes/{node}` → `GET /v1/orgs/{org}/nodes/{node}` for case names. */
const display = (operation: string) => operation.replace('{organization}', '{org}');

/** One vitest case per (endpoint, caller); anonymous and wrong-password callers get 401 unless stated. */
export function defineMatrix(
  endpoints: EndpointCases[],
  world: () => World | Promise<World>,
  http: Http,
  /** Per case; a file whose cases run concurrently against one server may need more than the default. */
  timeoutMs?: number,
): void {
  for (const endpoint of endpoints) {
    const expected: Partial<Record<CallerKey, number>> = {
      anonymous: 401,
      'wrong password': 401,
      ...endpoint.expect,
    };
    const [method = 'GET'] = endpoint.operation.split(' ');
    const variant = endpoint.variant ? ` (${endpoint.variant})` : '';
    for (const [caller, status] of Object.entries(expected) as [CallerKey, number][]) {
      it(
        `${display(endpoint.operation)}${variant} as ${caller} → ${status}`,
        async () => {
          const w = await world();
          const prepared = await endpoint.prepare(w, caller);
          const auth = prepared.as ?? defaultCredentials(w, caller);
          const result = await http(method, prepared.path, {
            auth,
            body: prepared.body,
            query: prepared.query,
          });
          const seen = `${method} ${prepared.path} as ${auth?.user ?? 'nobody'} → ${result.status} ${result.text.slice(0, 300)}`;
          expect(result.status, seen).toBe(status);
          const code = ERROR_CODES[status];
          if (code) expect(result.body?.code, seen).toBe(code);
          // Two answers are text/plain: the version, and a key (upstream stores and returns key text).
          const textAnswer =
            status === 200 &&
            method === 'GET' &&
            /\/admin\/version$|\/keys\/\{keyid\}$/.test(endpoint.operation);
          if (status !== 204 && !textAnswer) {
            expect(result.headers.get('content-type') ?? '', seen).toMatch(/^application\/json/);
          }
          // Upstream's document has no schema for `?attribute=` answers (ours has: the client's
          // checkedHttp, our-openapi.ts, checks them).
          if (status >= 200 && status < 300 && prepared.query?.attribute === undefined) {
            expect(checkResponse(endpoint.operation, status, result.body), `${seen}\nOpenAPI schema`).toEqual(
              [],
            );
          }
        },
        timeoutMs,
      );
    }
  }
}
