import type { EndpointCases } from '#test/support/matrix';
import { freshId } from '#test/support/world';
import { agbotPath, ownerOrAgbot, sameAgbot, throwawayAgbot, userOrAgbot } from './agbot-fixtures.ts';

/** Agbots (docs/exchange.md#agbots). */
const putBody = () => ({ token: `t-${freshId('tok')}`, name: 'renamed', publicKey: 'key-2' });

export const agbotCases: EndpointCases[] = [
  {
    // "any user": users of the org, org admins, root; a hub admin is authorized but only ever sees
    // the agbots of org root and IBM (docs/exchange.md#agbots row filter) → the empty-list 404.
    operation: 'GET /v1/orgs/{organization}/agbots',
    prepare: (w) => ({ path: `/v1/orgs/${w.same.org}/agbots` }),
    expect: {
      root: 200,
      'hub admin': 404,
      'org admin (same org)': 200,
      'org admin (other org)': 403,
      'user (same org)': 200,
      'user (other org)': 403,
      'node (same org)': 403,
      'node (other org)': 403,
      'agbot (same org)': 403,
      'agbot (other org)': 403,
    },
  },
  {
    operation: 'GET /v1/orgs/{organization}/agbots/{agreementbot}',
    prepare: (w, caller) => sameAgbot(w, caller),
    expect: userOrAgbot(200),
  },
  {
    operation: 'GET /v1/orgs/{organization}/agbots/{agreementbot}',
    variant: '?attribute=publicKey',
    prepare: (w, caller) => ({ ...sameAgbot(w, caller), query: { attribute: 'publicKey' } }),
    expect: userOrAgbot(200),
  },
  {
    // A missing agbot: other-org readers get 404 rather than 403 (docs/exchange.md#from-access-to-permission).
    operation: 'GET /v1/orgs/{organization}/agbots/{agreementbot}',
    variant: 'missing agbot',
    prepare: (w) => ({ path: agbotPath(`${w.same.org}/${freshId('ghost')}`) }),
    expect: {
      root: 404,
      'hub admin': 404,
      'org admin (same org)': 404,
      'org admin (other org)': 404,
      'user (same org)': 404,
      'user (other org)': 404,
      'node (same org)': 403,
      'node (other org)': 404,
      'agbot (same org)': 403,
      'agbot (other org)': 404,
    },
  },
  {
    operation: 'PUT /v1/orgs/{organization}/agbots/{agreementbot}',
    prepare: async (w, caller) => ({ ...(await throwawayAgbot(w, caller)), body: putBody() }),
    expect: ownerOrAgbot(200),
  },
  {
    // "a user to add": any user-type caller who may write in the org creates it and owns it.
    operation: 'PUT /v1/orgs/{organization}/agbots/{agreementbot}',
    variant: 'new agbot',
    prepare: (w) => ({ path: agbotPath(`${w.same.org}/${freshId('new')}`), body: putBody() }),
    expect: {
      root: 200,
      'hub admin': 200,
      'org admin (same org)': 200,
      'org admin (other org)': 403,
      'user (same org)': 200,
      'user (other org)': 403,
      'node (same org)': 403,
      'node (other org)': 403,
      'agbot (same org)': 403,
      'agbot (other org)': 403,
    },
  },
  {
    operation: 'PATCH /v1/orgs/{organization}/agbots/{agreementbot}',
    prepare: async (w, caller) => ({ ...(await throwawayAgbot(w, caller)), body: { name: 'patched' } }),
    expect: ownerOrAgbot(200),
  },
  {
    operation: 'DELETE /v1/orgs/{organization}/agbots/{agreementbot}',
    prepare: (w, caller) => throwawayAgbot(w, caller),
    expect: ownerOrAgbot(204),
  },
  {
    operation: 'POST /v1/orgs/{organization}/agbots/{agreementbot}/heartbeat',
    prepare: async (w, caller) => {
      const prepared = await throwawayAgbot(w, caller);
      return { ...prepared, path: `${prepared.path}/heartbeat` };
    },
    expect: ownerOrAgbot(201),
  },
];
