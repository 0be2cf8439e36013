import type { CallerKey, EndpointCases, World } from '#test/support/matrix';
import { expectStatus, freshId } from '#test/support/world';

/**
 * Services and their sub-resources (docs/exchange-catalog.md#catalog-authorization, #services). Each case works on a fresh
 * private service of `same` owned by `user (same org)` (unless it says public).
 */
const base = (org: string) => `/v1/orgs/${org}/services`;
export const serviceBody = (url: string, extra: Record<string, unknown> = {}) => ({
  label: url,
  url,
  version: '1.0.0',
  arch: 'amd64',
  sharable: 'multiple',
  ...extra,
});

/** A fresh service of `same`, owned by its plain user; returns its path. */
async function freshService(
  w: World,
  options: { public?: boolean } = {},
): Promise<{ path: string; url: string }> {
  const url = freshId('svc');
  const result = await w.http('POST', base(w.same.org), {
    auth: w.same.user,
    body: serviceBody(url, { public: options.public === true }),
  });
  expectStatus(result, 201, `POST ${base(w.same.org)}`);
  return { path: `${base(w.same.org)}/${url}_1.0.0_amd64`, url };
}

async function must(w: World, method: string, path: string, body: unknown, status = 201) {
  expectStatus(await w.http(method, path, { auth: w.same.user, body }), status, `${method} ${path}`);
}

const MT: CallerKey = 'agbot (multi-tenant)';

/** READ of a private service: docs/exchange-catalog.md#catalog-authorization then #service-visibility (another plain user of the org gets 404). */
const readPrivate = (ok: number, notOwner: number): Partial<Record<CallerKey, number>> => ({
  root: ok,
  'hub admin': 403,
  'org admin (same org)': ok,
  'org admin (other org)': 403,
  'user (same org, owner)': ok,
  'user (same org, not owner)': notOwner,
  'user (other org)': 403,
  'node (same org)': ok,
  'node (other org)': 403,
  'agbot (same org)': ok,
  'agbot (other org)': 403,
  [MT]: ok,
});

/** WRITE on a service: its owner, org admins, root. */
const write = (ok: number): Partial<Record<CallerKey, number>> => ({
  root: ok,
  'hub admin': 403,
  'org admin (same org)': ok,
  'org admin (other org)': 403,
  'user (same org, owner)': ok,
  'user (same org, not owner)': 403,
  'user (other org)': 403,
  'node (same org)': 403,
  'node (other org)': 403,
  'agbot (same org)': 403,
  'agbot (other org)': 403,
  [MT]: 403,
});

/** Any authenticated caller but hub admins (collections and public services). */
const everyoneButHubAdmins = (ok: number): Partial<Record<CallerKey, number>> => ({
  root: ok,
  'hub admin': 403,
  'org admin (same org)': ok,
  'org admin (other org)': ok,
  'user (same org)': ok,
  'user (other org)': ok,
  'node (same org)': ok,
  'node (other org)': ok,
  'agbot (same org)': ok,
  'agbot (other org)': ok,
  [MT]: ok,
});

const S = '/v1/orgs/{organization}/services';

export const serviceCases: EndpointCases[] = [
  {
    operation: `GET ${S}`,
    prepare: async (w) => {
      await freshService(w, { public: true });
      return { path: base(w.same.org) };
    },
    expect: everyoneButHubAdmins(200),
  },
  {
    operation: `POST ${S}`,
    prepare: (w) => ({ path: base(w.same.org), body: serviceBody(freshId('new')) }),
    expect: {
      root: 201,
      'hub admin': 403,
      'org admin (same org)': 201,
      'org admin (other org)': 403,
      'user (same org)': 201,
      'user (other org)': 403,
      'node (same org)': 403,
      'node (other org)': 403,
      'agbot (same org)': 403,
      'agbot (other org)': 403,
      [MT]: 403,
    },
  },
  {
    operation: `GET ${S}/{service}`,
    prepare: async (w) => ({ path: (await freshService(w)).path }),
    expect: readPrivate(200, 404),
  },
  {
    operation: `GET ${S}/{service}`,
    variant: 'public service',
    prepare: async (w) => ({ path: (await freshService(w, { public: true })).path }),
    expect: everyoneButHubAdmins(200),
  },
  {
    operation: `PUT ${S}/{service}`,
    prepare: async (w) => {
      const { path, url } = await freshService(w);
      return { path, body: serviceBody(url, { label: 'changed' }) };
    },
    expect: write(201),
  },
  {
    operation: `PATCH ${S}/{service}`,
    prepare: async (w) => ({
      path: (await freshService(w)).path,
      body: { label: 'patched' },
    }),
    expect: write(201),
  },
  {
    operation: `DELETE ${S}/{service}`,
    prepare: async (w) => ({ path: (await freshService(w)).path }),
    expect: write(204),
  },
  {
    operation: `GET ${S}/{service}/policy`,
    prepare: async (w) => {
      const { path } = await freshService(w);
      await must(w, 'PUT', `${path}/policy`, { label: 'p', constraints: ['a == 1'] });
      return { path: `${path}/policy` };
    },
    // No row filter on sub-resources (docs/exchange-catalog.md#service-policy-keys-and-dockauths): another user of the org reads it.
    expect: readPrivate(200, 200),
  },
  {
    operation: `PUT ${S}/{service}/policy`,
    prepare: async (w) => ({
      path: `${(await freshService(w)).path}/policy`,
      body: { label: 'p', properties: [{ name: 'x', value: 1 }] },
    }),
    expect: write(201),
  },
  {
    operation: `DELETE ${S}/{service}/policy`,
    prepare: async (w) => {
      const { path } = await freshService(w);
      await must(w, 'PUT', `${path}/policy`, { label: 'p' });
      return { path: `${path}/policy` };
    },
    expect: write(204),
  },
  {
    operation: `GET ${S}/{service}/keys`,
    prepare: async (w) => {
      const { path } = await freshService(w);
      await must(w, 'PUT', `${path}/keys/k1`, 'key text');
      return { path: `${path}/keys` };
    },
    expect: readPrivate(200, 200),
  },
  {
    operation: `DELETE ${S}/{service}/keys`,
    prepare: async (w) => {
      const { path } = await freshService(w);
      await must(w, 'PUT', `${path}/keys/k1`, 'key text');
      return { path: `${path}/keys` };
    },
    expect: write(204),
  },
  {
    operation: `GET ${S}/{service}/keys/{keyid}`,
    prepare: async (w) => {
      const { path } = await freshService(w);
      await must(w, 'PUT', `${path}/keys/k1`, 'key text');
      return { path: `${path}/keys/k1` };
    },
    expect: readPrivate(200, 200),
  },
  {
    operation: `PUT ${S}/{service}/keys/{keyid}`,
    prepare: async (w) => ({
      path: `${(await freshService(w)).path}/keys/k1`,
      body: 'key text',
    }),
    expect: write(201),
  },
  {
    operation: `DELETE ${S}/{service}/keys/{keyid}`,
    prepare: async (w) => {
      const { path } = await freshService(w);
      await must(w, 'PUT', `${path}/keys/k1`, 'key text');
      return { path: `${path}/keys/k1` };
    },
    expect: write(204),
  },
  {
    operation: `GET ${S}/{service}/dockauths`,
    prepare: async (w) => {
      const { path } = await freshService(w);
      await must(w, 'POST', `${path}/dockauths`, { registry: 'r.example.com', token: 't' });
      return { path: `${path}/dockauths` };
    },
    expect: readPrivate(200, 200),
  },
  {
    operation: `POST ${S}/{service}/dockauths`,
    prepare: async (w) => ({
      path: `${(await freshService(w)).path}/dockauths`,
      body: { registry: 'r.example.com', token: 't' },
    }),
    expect: write(201),
  },
  {
    operation: `DELETE ${S}/{service}/dockauths`,
    prepare: async (w) => {
      const { path } = await freshService(w);
      await must(w, 'POST', `${path}/dockauths`, { registry: 'r.example.com', token: 't' });
      return { path: `${path}/dockauths` };
    },
    expect: write(204),
  },
  {
    operation: `GET ${S}/{service}/dockauths/{dockauthid}`,
    prepare: async (w) => {
      const { path } = await freshService(w);
      await must(w, 'POST', `${path}/dockauths`, { registry: 'r.example.com', token: 't' });
      return { path: `${path}/dockauths/1` };
    },
    expect: readPrivate(200, 200),
  },
  {
    operation: `PUT ${S}/{service}/dockauths/{dockauthid}`,
    prepare: async (w) => {
      const { path } = await freshService(w);
      await must(w, 'POST', `${path}/dockauths`, { registry: 'r.example.com', token: 't' });
      return {
        path: `${path}/dockauths/1`,
        body: { registry: 'r2.example.com', token: 't2' },
      };
    },
    expect: write(201),
  },
  {
    operation: `DELETE ${S}/{service}/dockauths/{dockauthid}`,
    prepare: async (w) => {
      const { path } = await freshService(w);
      await must(w, 'POST', `${path}/dockauths`, { registry: 'r.example.com', token: 't' });
      return { path: `${path}/dockauths/1` };
    },
    expect: write(204),
  },
  {
    operation: 'GET /v1/catalog/services',
    prepare: async (w) => {
      await freshService(w, { public: true });
      return { path: '/v1/catalog/services' };
    },
    expect: everyoneButHubAdmins(200),
  },
  {
    operation: 'GET /v1/services',
    prepare: async (w) => {
      await freshService(w, { public: true });
      return { path: '/v1/services' };
    },
    expect: everyoneButHubAdmins(200),
  },
];
