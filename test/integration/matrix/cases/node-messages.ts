import type { Credentials } from '#test/support/http';
import type { CallerKey, EndpointCases, Prepared, World } from '#test/support/matrix';
import { createNode, expectStatus, freshId } from '#test/support/world';
import { once } from './agbot-fixtures.ts';

/**
 * A node's mailbox (docs/exchange.md#node-mailbox). Agbots of any org post (their public key goes with the
 * message, so they must have one: the world's agbot1s get one, agbot2s not); whoever may read the
 * node reads (the node itself, its owner, org admins, root, agbots of its org); whoever may write
 * it deletes. A node never reads or deletes another node's messages, of its org or another.
 */
const MESSAGE = { message: 'encrypted proposal', ttl: 3600 };

const nodePath = (node: string) => {
  const [org, id] = node.split('/');
  return `/v1/orgs/${org}/nodes/${id}`;
};

/** Gives agbot1 of both orgs a public key (PATCH by the agbot itself). */
export async function givePublicKeys(w: World): Promise<void> {
  for (const agbot of [w.same.agbot, w.other.agbot]) {
    const [org, id] = agbot.user.split('/');
    const path = `/v1/orgs/${org}/agbots/${id}`;
    const result = await w.http('PATCH', path, { auth: agbot, body: { publicKey: `${id}-public-key` } });
    if (result.status !== 200 && result.status !== 201) expectStatus(result, 200, `PATCH ${path}`);
  }
}

/** Posts a message to the node at `path` as the same org's agbot; its id, from "node msg <id> inserted". */
async function postMessage(w: World, path: string): Promise<number> {
  const result = expectStatus(
    await w.http('POST', `${path}/msgs`, { auth: w.same.agbot, body: MESSAGE }),
    201,
    `POST ${path}/msgs`,
  );
  const id = /node msg (\d+) inserted/.exec(String(result.body?.msg))?.[1];
  if (!id) throw new Error(`no message id in ${result.text}`);
  return Number(id);
}

/** node1 (of `user (same org)`) holds at least one live message (made once). */
const node1Message = once((w: World) => postMessage(w, nodePath(w.same.node.user)));

/** READ or WRITE on one existing node: owner, org admins, root, the node itself; never another node. */
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

/** A new node of `user (same org)` with one message; `node (itself)` calls with its token, another node is node1. */
async function throwawayNodeWithMessage(w: World, caller: CallerKey): Promise<Prepared & { id: number }> {
  const node: Credentials = await createNode(w, w.same.user, freshId('node'));
  const path = nodePath(node.user);
  const id = await postMessage(w, path);
  const as =
    caller === 'node (itself)' ? node : caller === 'node (same org, another)' ? w.same.node : undefined;
  return { path, as, id };
}

const onlyAgbots = (ok: number): Partial<Record<CallerKey, number>> => ({
  root: 403,
  'hub admin': 403,
  'org admin (same org)': 403,
  'org admin (other org)': 403,
  'user (same org)': 403,
  'user (other org)': 403,
  'node (itself)': 403,
  'node (same org, another)': 403,
  'node (other org)': 403,
  'agbot (same org)': ok,
  // Only agbots that may serve the node's org (its own, or IBM's multi-tenant ones; issue 23).
  'agbot (other org)': 403,
});

export const nodeMessageCases: EndpointCases[] = [
  {
    operation: 'GET /v1/orgs/{organization}/nodes/{node}/msgs',
    prepare: async (w) => {
      await node1Message(w);
      return { path: `${nodePath(w.same.node.user)}/msgs` };
    },
    expect: oneNode(200, 200),
  },
  {
    operation: 'GET /v1/orgs/{organization}/nodes/{node}/msgs',
    variant: '?maxmsgs=1',
    prepare: async (w) => {
      await node1Message(w);
      return { path: `${nodePath(w.same.node.user)}/msgs`, query: { maxmsgs: '1' } };
    },
    expect: oneNode(200, 200),
  },
  {
    // Upstream: an empty maxmsgs is a 400 for node messages (after authorization).
    operation: 'GET /v1/orgs/{organization}/nodes/{node}/msgs',
    variant: '?maxmsgs= (empty)',
    prepare: (w) => ({ path: `${nodePath(w.same.node.user)}/msgs`, query: { maxmsgs: '' } }),
    expect: oneNode(400, 400),
  },
  {
    operation: 'GET /v1/orgs/{organization}/nodes/{node}/msgs',
    variant: 'missing node',
    prepare: (w) => ({ path: `${nodePath(`${w.same.org}/${freshId('ghost')}`)}/msgs` }),
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
    operation: 'GET /v1/orgs/{organization}/nodes/{node}/msgs/{msgid}',
    prepare: async (w) => ({ path: `${nodePath(w.same.node.user)}/msgs/${await node1Message(w)}` }),
    expect: oneNode(200, 200),
  },
  {
    operation: 'POST /v1/orgs/{organization}/nodes/{node}/msgs',
    prepare: (w) => ({ path: `${nodePath(w.same.node.user)}/msgs`, body: MESSAGE }),
    expect: onlyAgbots(201),
  },
  {
    // An agbot without a public key cannot have its messages answered: 400, nothing stored.
    operation: 'POST /v1/orgs/{organization}/nodes/{node}/msgs',
    variant: 'agbot without a public key',
    prepare: (w) => ({ path: `${nodePath(w.same.node.user)}/msgs`, body: MESSAGE }),
    expect: { 'agbot (same org, another)': 400 },
  },
  {
    operation: 'POST /v1/orgs/{organization}/nodes/{node}/msgs',
    variant: 'missing node',
    prepare: (w) => ({ path: `${nodePath(`${w.same.org}/${freshId('ghost')}`)}/msgs`, body: MESSAGE }),
    expect: { 'agbot (same org)': 404, 'agbot (other org)': 403 },
  },
  {
    operation: 'DELETE /v1/orgs/{organization}/nodes/{node}/msgs/{msgid}',
    prepare: async (w, caller) => {
      const prepared = await throwawayNodeWithMessage(w, caller);
      return { path: `${prepared.path}/msgs/${prepared.id}`, as: prepared.as };
    },
    expect: oneNode(204, 403),
  },
];
