import { randomBytes } from 'node:crypto';
import type { CallerKey, EndpointCases, World } from '#test/support/matrix';
import { expectStatus, freshId } from '#test/support/world';
import { serviceBody } from './services.ts';

/**
 * The agbots' node searches and node health (docs/exchange-catalog.md#pattern-search, #pattern-node-health, #policy-search): org admins,
 * agbots of the org, multi-tenant agbots and root; plain users, nodes, hub admins and other orgs
 * 403. Each case publishes a service, a pattern and a policy of `same` and registers one candidate
 * node of each kind; an agbot that serves neither finds nothing (404), as issue 11 asks.
 */
const MT: CallerKey = 'agbot (multi-tenant)';

async function catalog(w: World) {
  const org = w.same.org;
  const url = freshId('srch');
  const must = async (method: string, path: string, body: unknown) =>
    expectStatus(await w.http(method, path, { auth: w.same.admin, body }), 201, `${method} ${path}`);
  await must('POST', `/v1/orgs/${org}/services`, serviceBody(url));
  const pattern = freshId('pat');
  await must('POST', `/v1/orgs/${org}/patterns/${pattern}`, {
    label: 'p',
    services: [
      { serviceUrl: url, serviceOrgid: org, serviceArch: 'amd64', serviceVersions: [{ version: '1.0.0' }] },
    ],
  });
  const policy = freshId('pol');
  await must('POST', `/v1/orgs/${org}/business/policies/${policy}`, {
    label: 'p',
    service: { name: url, org, arch: 'amd64', serviceVersions: [{ version: '1.0.0' }] },
  });
  for (const nodePattern of [`${org}/${pattern}`, '']) {
    const id = freshId('cand');
    const body = {
      name: id,
      token: `t-${randomBytes(4).toString('hex')}`,
      pattern: nodePattern,
      publicKey: 'pk',
      arch: 'amd64',
    };
    expectStatus(
      await w.http('PUT', `/v1/orgs/${org}/nodes/${id}`, { auth: w.same.user, body }),
      201,
      'PUT node',
    );
  }
  return { org, url, pattern, policy };
}

/** Who may search: found nodes (201) for all but agbots that serve nothing here (404). */
const search = {
  root: 201,
  'hub admin': 403,
  'org admin (same org)': 201,
  'org admin (other org)': 403,
  'user (same org)': 403,
  'user (other org)': 403,
  'node (same org)': 403,
  'node (other org)': 403,
  'agbot (same org)': 404,
  'agbot (other org)': 403,
  [MT]: 404,
};

/** Node health has no served restriction. */
const health = { ...search, 'agbot (same org)': 201, [MT]: 201 };

export const searchCases: EndpointCases[] = [
  ...(['patterns', 'deployment/patterns'] as const).flatMap((form): EndpointCases[] => [
    {
      operation: `POST /v1/orgs/{organization}/${form}/{pattern}/search`,
      prepare: async (w) => {
        const c = await catalog(w);
        return {
          path: `/v1/orgs/${c.org}/${form}/${c.pattern}/search`,
          body: { serviceUrl: `${c.org}/${c.url}` },
        };
      },
      expect: search,
    },
    {
      operation: `POST /v1/orgs/{organization}/${form}/{pattern}/nodehealth`,
      prepare: async (w) => {
        const c = await catalog(w);
        return { path: `/v1/orgs/${c.org}/${form}/${c.pattern}/nodehealth`, body: { lastTime: '' } };
      },
      expect: health,
    },
  ]),
  ...(['business', 'deployment'] as const).map(
    (form): EndpointCases => ({
      operation: `POST /v1/orgs/{organization}/${form}/policies/{policy}/search`,
      prepare: async (w) => {
        const c = await catalog(w);
        return { path: `/v1/orgs/${c.org}/${form}/policies/${c.policy}/search`, body: {} };
      },
      expect: search,
    }),
  ),
  {
    operation: 'POST /v1/orgs/{organization}/search/nodehealth',
    prepare: async (w) => ({
      path: `/v1/orgs/${(await catalog(w)).org}/search/nodehealth`,
      body: { lastTime: '' },
    }),
    expect: health,
  },
];
