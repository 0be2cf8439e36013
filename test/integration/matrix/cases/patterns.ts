import type { CallerKey, EndpointCases, World } from '#test/support/matrix';
import { expectStatus, freshId } from '#test/support/world';
import { serviceBody } from './services.ts';

/**
 * Deployment patterns (docs/exchange-catalog.md#catalog-authorization, #patterns), under anax's `/patterns` and the
 * documented `/deployment/patterns`. Each case works on a fresh private pattern of `same` owned by
 * its plain user, deploying a service of `same`.
 */
const MT: CallerKey = 'agbot (multi-tenant)';

async function freshPattern(w: World, form: 'patterns' | 'deployment/patterns' = 'patterns') {
  const url = freshId('patsvc');
  const services = `/v1/orgs/${w.same.org}/services`;
  expectStatus(
    await w.http('POST', services, { auth: w.same.user, body: serviceBody(url) }),
    201,
    `POST ${services}`,
  );
  const body = {
    label: 'pattern',
    services: [
      {
        serviceUrl: url,
        serviceOrgid: w.same.org,
        serviceArch: 'amd64',
        serviceVersions: [{ version: '1.0.0' }],
      },
    ],
  };
  return { path: `/v1/orgs/${w.same.org}/${form}/${freshId('pat')}`, body };
}

async function existingPattern(w: World, form: 'patterns' | 'deployment/patterns' = 'patterns') {
  const pattern = await freshPattern(w, form);
  expectStatus(
    await w.http('POST', pattern.path, { auth: w.same.user, body: pattern.body }),
    201,
    `POST ${pattern.path}`,
  );
  return pattern;
}

async function withKey(w: World, form: 'patterns' | 'deployment/patterns') {
  const { path } = await existingPattern(w, form);
  expectStatus(
    await w.http('PUT', `${path}/keys/k1`, { auth: w.same.user, body: 'key text' }),
    201,
    'PUT key',
  );
  return path;
}

/** READ of a private pattern: the org's identities, multi-tenant agbots, root. */
const read = (ok: number): Partial<Record<CallerKey, number>> => ({
  root: ok,
  'hub admin': 403,
  'org admin (same org)': ok,
  'org admin (other org)': 403,
  'user (same org, owner)': ok,
  'user (same org, not owner)': ok,
  'user (other org)': 403,
  'node (same org)': ok,
  'node (other org)': 403,
  'agbot (same org)': ok,
  'agbot (other org)': 403,
  [MT]: ok,
});

/** The org's list (always "public"): other orgs' users see no private rows (404); nodes and agbots are not filtered. */
const list = {
  root: 200,
  'hub admin': 403,
  'org admin (same org)': 200,
  'org admin (other org)': 404,
  'user (same org)': 200,
  'user (other org)': 404,
  'node (same org)': 200,
  'node (other org)': 200,
  'agbot (same org)': 200,
  'agbot (other org)': 200,
  [MT]: 200,
};

/** WRITE: the owner, org admins, root. */
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

/** CREATE: users and admins of the org, root. */
const create = {
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
};

export const patternCases: EndpointCases[] = [
  ...(['patterns', 'deployment/patterns'] as const).flatMap((form): EndpointCases[] => {
    const P = `/v1/orgs/{organization}/${form}`;
    return [
      { operation: `POST ${P}/{pattern}`, prepare: (w) => freshPattern(w, form), expect: create },
      {
        operation: `GET ${P}/{pattern}`,
        prepare: async (w) => ({ path: (await existingPattern(w, form)).path }),
        expect: read(200),
      },
      {
        operation: `GET ${P}`,
        prepare: async (w) => {
          await existingPattern(w, form);
          return { path: `/v1/orgs/${w.same.org}/${form}` };
        },
        expect: list,
      },
      { operation: `PUT ${P}/{pattern}`, prepare: (w) => existingPattern(w, form), expect: write(201) },
      {
        operation: `PATCH ${P}/{pattern}`,
        prepare: async (w) => ({ path: (await existingPattern(w, form)).path, body: { label: 'patched' } }),
        expect: write(201),
      },
      {
        operation: `DELETE ${P}/{pattern}`,
        prepare: async (w) => ({ path: (await existingPattern(w, form)).path }),
        expect: write(204),
      },
      {
        operation: `GET ${P}/{pattern}/keys`,
        prepare: async (w) => ({ path: `${await withKey(w, form)}/keys` }),
        expect: read(200),
      },
      {
        operation: `DELETE ${P}/{pattern}/keys`,
        prepare: async (w) => ({ path: `${await withKey(w, form)}/keys` }),
        expect: write(204),
      },
      {
        operation: `GET ${P}/{pattern}/keys/{keyid}`,
        prepare: async (w) => ({ path: `${await withKey(w, form)}/keys/k1` }),
        expect: read(200),
      },
      {
        operation: `PUT ${P}/{pattern}/keys/{keyid}`,
        prepare: async (w) => ({
          path: `${(await existingPattern(w, form)).path}/keys/k1`,
          body: 'key text',
        }),
        expect: write(201),
      },
      {
        operation: `DELETE ${P}/{pattern}/keys/{keyid}`,
        prepare: async (w) => ({ path: `${await withKey(w, form)}/keys/k1` }),
        expect: write(204),
      },
    ];
  }),
  ...['/v1/catalog/patterns', '/v1/deployment/patterns'].map(
    (path): EndpointCases => ({
      operation: `GET ${path}`,
      prepare: async (w) => {
        await existingPattern(w);
        return { path };
      },
      // Nodes, agbots and root see every org's patterns; users of another org only public ones (none here).
      expect: {
        root: 200,
        'hub admin': 403,
        'org admin (same org)': 200,
        'org admin (other org)': 404,
        'user (same org)': 200,
        'user (other org)': 404,
        'node (same org)': 200,
        'node (other org)': 200,
        'agbot (same org)': 200,
        'agbot (other org)': 200,
        [MT]: 200,
      },
    }),
  ),
];
