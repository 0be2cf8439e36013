import { randomBytes } from 'node:crypto';
import type { Credentials } from '#test/support/http';
import type { CallerKey, EndpointCases, Prepared, World } from '#test/support/matrix';
import { expectStatus, freshId } from '#test/support/world';
import { patternCases, policyCases } from './agbot-children.ts';

/**
 * What a node records about itself in the Exchange (docs/exchange.md#node-agreements, #node-status-and-errors; docs/exchange-catalog.md#node-sub-resources):
 * agreements, status, errors, services' config state. READ and WRITE on the node: the node
 * itself, its owner, org admins, root; agbots of the org and multi-tenant agbots only read.
 * Reads target `same`'s node1, seeded once (`seedNodeReports`); writes work on a throwaway node
 * of the same owner.
 */
const AGREEMENT = {
  services: [{ orgid: 'svcorg', url: 'svc.url' }],
  agreementService: { orgid: 'svcorg', pattern: '', url: 'svcorg/svc.url' },
  state: 'Agree to proposal',
};
const STATUS = {
  connectivity: { 'exchange.example.com': true },
  services: [
    {
      agreementId: 'a1',
      serviceUrl: 'svc.url',
      orgid: 'svcorg',
      version: '1.0.0',
      arch: 'amd64',
      containerStatus: [{ name: 'c', image: 'img', created: 1700000000, state: 'running' }],
    },
  ],
};
const ERRORS = {
  errors: [{ record_id: '1', message: 'image pull failed', event_code: 'image_load_failed' }],
};
const SEEDED_AGREEMENT = 'nw-seeded-agreement';

const nodeBase = (node: Credentials) => {
  const [org, id] = node.user.split('/');
  return `/v1/orgs/${org}/nodes/${id}`;
};

async function expectOk(
  w: World,
  method: string,
  path: string,
  auth: Credentials,
  body: unknown,
  status: number,
) {
  expectStatus(await w.http(method, path, { auth, body }), status, `${method} ${path}`);
}

/** node1's agreement, status and errors, written by node1 itself (the matrix world's `extra`). */
export async function seedNodeReports(w: World): Promise<void> {
  const base = nodeBase(w.same.node);
  await expectOk(w, 'PUT', `${base}/agreements/${SEEDED_AGREEMENT}`, w.same.node, AGREEMENT, 201);
  await expectOk(w, 'PUT', `${base}/status`, w.same.node, STATUS, 201);
  await expectOk(w, 'PUT', `${base}/errors`, w.same.node, ERRORS, 201);
}

/** READ on an existing node. */
const reader = (ok: number): Partial<Record<CallerKey, number>> => ({
  root: ok,
  'hub admin': 403,
  'org admin (same org)': ok,
  'org admin (other org)': 403,
  'user (same org, owner)': ok,
  'user (same org, not owner)': 403,
  'user (other org)': 403,
  'node (itself)': ok,
  'node (same org, another)': 403,
  'node (other org)': 403,
  'agbot (same org)': ok,
  'agbot (other org)': 403,
  'agbot (multi-tenant)': ok,
});

/** WRITE on an existing node: as READ, but no agbot writes what the agent reports. */
const writer = (ok: number): Partial<Record<CallerKey, number>> => ({
  ...reader(ok),
  'agbot (same org)': 403,
  'agbot (multi-tenant)': 403,
});

/**
 * A new node of `user (same org)` with one registered service, with `seed` written by its owner;
 * `node (itself)` calls with its token, `node (same org, another)` is node1.
 */
async function throwawayNode(
  w: World,
  caller: CallerKey,
  seed?: (base: string, owner: Credentials) => Promise<void>,
): Promise<Prepared> {
  const id = freshId('nw-node');
  const token = `${id}-token-${randomBytes(4).toString('hex')}`;
  const base = `/v1/orgs/${w.same.org}/nodes/${id}`;
  const body = {
    name: id,
    token,
    pattern: '',
    publicKey: '',
    arch: 'amd64',
    registeredServices: [{ url: 'svcorg/svc.url', version: '1.0.0' }],
  };
  await expectOk(w, 'PUT', base, w.same.user, body, 201);
  await seed?.(base, w.same.user);
  const node = { user: `${w.same.org}/${id}`, secret: token };
  const as =
    caller === 'node (itself)' ? node : caller === 'node (same org, another)' ? w.same.node : undefined;
  return { path: base, as };
}

const onNode1 = (w: World, child: string): Prepared => ({ path: `${nodeBase(w.same.node)}${child}` });

const onThrowaway = async (
  w: World,
  caller: CallerKey,
  child: string,
  body?: unknown,
  seed?: (base: string, owner: Credentials) => Promise<void>,
): Promise<Prepared> => {
  const prepared = await throwawayNode(w, caller, seed);
  return { ...prepared, path: `${prepared.path}${child}`, ...(body === undefined ? {} : { body }) };
};

/** Writes `body` at `<node>/<child>` as the node's owner before the case runs. */
const seeded = (w: World, child: string, body: unknown) => (base: string, owner: Credentials) =>
  expectOk(w, 'PUT', `${base}${child}`, owner, body, 201);

export const nodeAgreementCases: EndpointCases[] = [
  {
    operation: 'GET /v1/orgs/{organization}/nodes/{node}/agreements',
    prepare: (w) => onNode1(w, '/agreements'),
    expect: reader(200),
  },
  {
    operation: 'GET /v1/orgs/{organization}/nodes/{node}/agreements/{agid}',
    prepare: (w) => onNode1(w, `/agreements/${SEEDED_AGREEMENT}`),
    expect: reader(200),
  },
  {
    // docs/exchange.md#from-access-to-permission: a missing node is the same-org caller's own (404 after authorization);
    // other orgs learn nothing more than 404 either; nodes of the org and hub admins get 403.
    operation: 'GET /v1/orgs/{organization}/nodes/{node}/agreements',
    variant: 'missing node',
    prepare: (w) => ({ path: `/v1/orgs/${w.same.org}/nodes/${freshId('ghost')}/agreements` }),
    expect: {
      root: 404,
      'hub admin': 403,
      'org admin (same org)': 404,
      'org admin (other org)': 404,
      'user (same org)': 404,
      'user (other org)': 404,
      'node (same org)': 403,
      'node (other org)': 404,
      'agbot (same org)': 404,
      'agbot (other org)': 404,
      'agbot (multi-tenant)': 404,
    },
  },
  {
    operation: 'PUT /v1/orgs/{organization}/nodes/{node}/agreements/{agid}',
    prepare: (w, caller) => onThrowaway(w, caller, `/agreements/${freshId('agr')}`, AGREEMENT),
    expect: writer(201),
  },
  {
    operation: 'DELETE /v1/orgs/{organization}/nodes/{node}/agreements/{agid}',
    prepare: (w, caller) =>
      onThrowaway(w, caller, '/agreements/gone', undefined, seeded(w, '/agreements/gone', AGREEMENT)),
    expect: writer(204),
  },
  {
    operation: 'DELETE /v1/orgs/{organization}/nodes/{node}/agreements',
    prepare: (w, caller) =>
      onThrowaway(w, caller, '/agreements', undefined, seeded(w, '/agreements/a', AGREEMENT)),
    expect: writer(204),
  },
];

export const nodeReportCases: EndpointCases[] = [
  {
    operation: 'GET /v1/orgs/{organization}/nodes/{node}/status',
    prepare: (w) => onNode1(w, '/status'),
    expect: reader(200),
  },
  {
    operation: 'PUT /v1/orgs/{organization}/nodes/{node}/status',
    prepare: (w, caller) => onThrowaway(w, caller, '/status', STATUS),
    expect: writer(201),
  },
  {
    operation: 'DELETE /v1/orgs/{organization}/nodes/{node}/status',
    prepare: (w, caller) => onThrowaway(w, caller, '/status', undefined, seeded(w, '/status', STATUS)),
    expect: writer(204),
  },
  {
    operation: 'GET /v1/orgs/{organization}/nodes/{node}/errors',
    prepare: (w) => onNode1(w, '/errors'),
    expect: reader(200),
  },
  {
    operation: 'PUT /v1/orgs/{organization}/nodes/{node}/errors',
    prepare: (w, caller) => onThrowaway(w, caller, '/errors', ERRORS),
    expect: writer(201),
  },
  {
    operation: 'DELETE /v1/orgs/{organization}/nodes/{node}/errors',
    prepare: (w, caller) => onThrowaway(w, caller, '/errors', undefined, seeded(w, '/errors', ERRORS)),
    expect: writer(204),
  },
  {
    operation: 'POST /v1/orgs/{organization}/nodes/{node}/services_configstate',
    prepare: (w, caller) =>
      onThrowaway(w, caller, '/services_configstate', {
        org: 'svcorg',
        url: 'svc.url',
        configState: 'suspended',
      }),
    expect: writer(201),
  },
];

/** The same cases at upstream's alias paths (the expected statuses do not change). */
const aliased = (cases: EndpointCases[], from: string, to: string): EndpointCases[] =>
  cases.map((c) => ({
    ...c,
    operation: c.operation.replace(from, to),
    prepare: async (w, caller) => {
      const prepared = await c.prepare(w, caller);
      return { ...prepared, path: prepared.path.replace(from, to) };
    },
  }));

export const patternAliasCases = aliased(patternCases, '/deployment/patterns', '/patterns');
export const policyAliasCases = aliased(policyCases, '/deployment/policies', '/businesspols');
