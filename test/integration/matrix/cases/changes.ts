import type { EndpointCases, World } from '#test/support/matrix';

/** The change feed (docs/exchange.md#change-feed): READ on the org for the feed, MAXCHANGEID for the newest id. */
const feed = (w: World) => ({
  path: `/v1/orgs/${w.same.org}/changes`,
  body: { changeId: 0, maxRecords: 10 },
});

export const changesCases: EndpointCases[] = [
  {
    operation: 'POST /v1/orgs/{organization}/changes',
    prepare: feed,
    expect: {
      root: 201,
      'hub admin': 201,
      'org admin (same org)': 201,
      'org admin (other org)': 403,
      'user (same org)': 201,
      'user (other org)': 403,
      'node (same org)': 201,
      'node (other org)': 403,
      'agbot (same org)': 201,
      'agbot (other org)': 403,
      'agbot (multi-tenant)': 201,
    },
  },
  {
    operation: 'POST /v1/orgs/{organization}/changes',
    variant: 'bad body',
    prepare: (w) => ({ path: `/v1/orgs/${w.same.org}/changes`, body: { changeId: 'latest' } }),
    expect: { root: 400, 'org admin (same org)': 400, 'node (same org)': 400, 'agbot (same org)': 400 },
  },
  {
    operation: 'GET /v1/changes/maxchangeid',
    prepare: () => ({ path: '/v1/changes/maxchangeid' }),
    expect: { root: 200, 'hub admin': 403, 'org admin': 200, user: 403, node: 200, agbot: 200 },
  },
];
