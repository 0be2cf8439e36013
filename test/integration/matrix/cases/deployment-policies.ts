import type { CallerKey, EndpointCases, World } from '#test/support/matrix';
import { expectStatus, freshId } from '#test/support/world';
import { serviceBody } from './services.ts';

/**
 * Deployment policies (docs/exchange-catalog.md#catalog-authorization, #policy-routes), under anax's `/business/policies` and the
 * documented `/deployment/policies`. Each case works on a fresh policy of `same` owned by its plain
 * user, deploying a service of `same`.
 */
const MT: CallerKey = 'agbot (multi-tenant)';

async function freshPolicy(w: World, form: 'business' | 'deployment' = 'business') {
  const url = freshId('psvc');
  const services = `/v1/orgs/${w.same.org}/services`;
  expectStatus(
    await w.http('POST', services, { auth: w.same.user, body: serviceBody(url) }),
    201,
    `POST ${services}`,
  );
  const body = {
    label: 'policy',
    service: { name: url, org: w.same.org, arch: 'amd64', serviceVersions: [{ version: '1.0.0' }] },
    constraints: ['purpose == demo'],
  };
  const path = `/v1/orgs/${w.same.org}/${form}/policies/${freshId('pol')}`;
  return { path, body };
}

async function existingPolicy(w: World, form: 'business' | 'deployment' = 'business') {
  const policy = await freshPolicy(w, form);
  expectStatus(
    await w.http('POST', policy.path, { auth: w.same.user, body: policy.body }),
    201,
    `POST ${policy.path}`,
  );
  return policy;
}

/** READ: the org's identities, multi-tenant agbots, root; never public. */
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

export const deploymentPolicyCases: EndpointCases[] = [
  ...(['business', 'deployment'] as const).flatMap((form): EndpointCases[] => [
    {
      operation: `POST /v1/orgs/{organization}/${form}/policies/{policy}`,
      prepare: (w) => freshPolicy(w, form),
      expect: create,
    },
    {
      operation: `GET /v1/orgs/{organization}/${form}/policies/{policy}`,
      prepare: async (w) => ({ path: (await existingPolicy(w, form)).path }),
      expect: read(200),
    },
    {
      operation: `GET /v1/orgs/{organization}/${form}/policies`,
      prepare: async (w) => {
        await existingPolicy(w, form);
        return { path: `/v1/orgs/${w.same.org}/${form}/policies` };
      },
      expect: read(200),
    },
    {
      operation: `PUT /v1/orgs/{organization}/${form}/policies/{policy}`,
      prepare: async (w) => existingPolicy(w, form),
      expect: write(201),
    },
    {
      operation: `PATCH /v1/orgs/{organization}/${form}/policies/{policy}`,
      prepare: async (w) => ({ path: (await existingPolicy(w, form)).path, body: { label: 'patched' } }),
      expect: write(201),
    },
    {
      operation: `DELETE /v1/orgs/{organization}/${form}/policies/{policy}`,
      prepare: async (w) => ({ path: (await existingPolicy(w, form)).path }),
      expect: write(204),
    },
  ]),
];
