import type { CallerKey, EndpointCases, Prepared, World } from '#test/support/matrix';
import { createNode, freshId, putNodePolicy } from '#test/support/world';

/**
 * Nodes (docs/exchange.md#nodes). Reads target `same`'s node1 (owned by `user (same org)`); writes
 * target a throwaway node of the same owner. `node (itself)` is the target node calling.
 */
const nodePath = (node: string) => {
  const [org, id] = node.split('/');
  return `/v1/orgs/${org}/nodes/${id}`;
};

/** READ or WRITE on one existing node: owner, org admin, root and the node itself. */
const oneNode = (ok: number, agbotSameOrg: number): Partial<Record<CallerKey, number>> => ({
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
  'agbot (same org)': agbotSameOrg,
  'agbot (other org)': 403,
});

/** A new node owned by `user (same org)`; `node (itself)` calls with its token, another node is node1. */
async function throwawayNode(w: World, caller: CallerKey, withPolicy = false): Promise<Prepared> {
  const node = await createNode(w, w.same.user, freshId('node'));
  if (withPolicy) await putNodePolicy(w, node);
  const as =
    caller === 'node (itself)' ? node : caller === 'node (same org, another)' ? w.same.node : undefined;
  return { path: nodePath(node.user), as };
}

const policyBody = {
  label: 'e2e',
  description: 'e2e policy',
  properties: [{ name: 'purpose', value: 'test' }],
};

export const nodeCases: EndpointCases[] = [
  {
    operation: 'GET /v1/orgs/{organization}/nodes',
    prepare: (w) => ({ path: `/v1/orgs/${w.same.org}/nodes` }),
    expect: {
      root: 200,
      'hub admin': 403,
      'org admin (same org)': 200,
      'org admin (other org)': 403,
      'user (same org)': 200,
      'user (other org)': 403,
      'node (same org)': 403,
      'node (other org)': 403,
      'agbot (same org)': 200,
      'agbot (other org)': 403,
    },
  },
  {
    operation: 'GET /v1/orgs/{organization}/nodes/{node}',
    prepare: (w) => ({ path: nodePath(w.same.node.user) }),
    expect: oneNode(200, 200),
  },
  {
    operation: 'GET /v1/orgs/{organization}/nodes/{node}',
    variant: 'missing node',
    prepare: (w) => ({ path: nodePath(`${w.same.org}/${freshId('ghost')}`) }),
    expect: {
      root: 404,
      'hub admin': 403,
      'org admin (same org)': 404,
      'user (same org)': 404,
      'node (same org)': 403,
      'org admin (other org)': 404,
      'user (other org)': 404,
      'node (other org)': 404,
      'agbot (same org)': 404,
      'agbot (other org)': 404,
    },
  },
  {
    operation: 'PUT /v1/orgs/{organization}/nodes/{node}',
    prepare: async (w, caller) => ({
      ...(await throwawayNode(w, caller)),
      body: { name: 'renamed', arch: 'arm64' },
    }),
    expect: oneNode(201, 403),
  },
  {
    // Creating: any user of the org (becoming the owner), its admin, root.
    operation: 'PUT /v1/orgs/{organization}/nodes/{node}',
    variant: 'new node',
    prepare: (w) => ({ path: nodePath(`${w.same.org}/${freshId('new')}`), body: { name: 'new node' } }),
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
    },
  },
  {
    operation: 'PATCH /v1/orgs/{organization}/nodes/{node}',
    prepare: async (w, caller) => ({ ...(await throwawayNode(w, caller)), body: { name: 'patched' } }),
    expect: oneNode(201, 403),
  },
  {
    operation: 'DELETE /v1/orgs/{organization}/nodes/{node}',
    prepare: (w, caller) => throwawayNode(w, caller),
    expect: oneNode(204, 403),
  },
  {
    operation: 'POST /v1/orgs/{organization}/nodes/{node}/heartbeat',
    prepare: (w) => ({ path: `${nodePath(w.same.node.user)}/heartbeat` }),
    expect: oneNode(201, 403),
  },
  {
    operation: 'GET /v1/orgs/{organization}/nodes/{node}/policy',
    prepare: (w) => ({ path: `${nodePath(w.same.node.user)}/policy` }),
    expect: oneNode(200, 200),
  },
  {
    operation: 'PUT /v1/orgs/{organization}/nodes/{node}/policy',
    prepare: async (w, caller) => {
      const prepared = await throwawayNode(w, caller);
      return { ...prepared, path: `${prepared.path}/policy`, body: policyBody };
    },
    expect: oneNode(201, 403),
  },
  {
    operation: 'DELETE /v1/orgs/{organization}/nodes/{node}/policy',
    prepare: async (w, caller) => {
      const prepared = await throwawayNode(w, caller, true);
      return { ...prepared, path: `${prepared.path}/policy` };
    },
    expect: oneNode(204, 403),
  },
];
