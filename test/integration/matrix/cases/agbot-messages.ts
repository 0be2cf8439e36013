import { randomBytes } from 'node:crypto';
import type { Credentials } from '#test/support/http';
import type { CallerKey, EndpointCases, World } from '#test/support/matrix';
import { expectStatus, freshId } from '#test/support/world';
import { agbotPath, once, ownerOrAgbot, sameAgbot, throwawayAgbot, userOrAgbot } from './agbot-fixtures.ts';

/**
 * An agbot's mailbox (docs/exchange.md#agbot-mailbox). Any node posts (its public key
 * goes with the message, so it must have one); users and the agbot read ("a user or the agbot":
 * never a node); the owning user or the agbot deletes.
 */
const MESSAGE = { message: 'encrypted proposal reply', ttl: 3600 };

/** A node of `owner`'s org that registered a public key (so it may send messages). */
async function senderNode(w: World, owner: Credentials): Promise<Credentials> {
  const [org] = owner.user.split('/');
  const id = freshId('sender');
  const token = `${id}-token-${randomBytes(4).toString('hex')}`;
  const path = `/v1/orgs/${org}/nodes/${id}`;
  const body = { name: id, token, pattern: '', publicKey: `${id}-public-key`, arch: 'amd64' };
  expectStatus(await w.http('PUT', path, { auth: owner, body }), 201, `PUT ${path}`);
  return { user: `${org}/${id}`, secret: token };
}

const senders = once(async (w: World) => {
  const [same, other] = await Promise.all([senderNode(w, w.same.user), senderNode(w, w.other.user)]);
  return { same, other };
});

/** Posts a message to the agbot at `path`; its id, from "agbot msg <id> inserted". */
async function postMessage(w: World, path: string): Promise<number> {
  const { same } = await senders(w);
  const result = expectStatus(
    await w.http('POST', `${path}/msgs`, { auth: same, body: MESSAGE }),
    201,
    `POST ${path}/msgs`,
  );
  const id = /agbot msg (\d+) inserted/.exec(String(result.body?.msg))?.[1];
  if (!id) throw new Error(`no message id in ${result.text}`);
  return Number(id);
}

/** agbot1 holds at least one live message (made once). */
const agbot1Message = once((w: World) => postMessage(w, agbotPath(w.same.agbot.user)));

/** Nodes that registered a public key send as `node (same org)` / `node (other org)`. */
async function senderFor(w: World, caller: CallerKey): Promise<Credentials | undefined> {
  if (caller === 'node (same org)') return (await senders(w)).same;
  if (caller === 'node (other org)') return (await senders(w)).other;
  return undefined;
}

const onlyNodes = (ok: number) => ({
  ...ownerOrAgbot(403),
  'node (same org)': ok,
  // Only nodes of an org the agbot may serve (its own; any for IBM's multi-tenant agbots; issue 23).
  'node (other org)': 403,
});

export const messageCases: EndpointCases[] = [
  {
    operation: 'GET /v1/orgs/{organization}/agbots/{agreementbot}/msgs',
    prepare: async (w, caller) => {
      await agbot1Message(w);
      const prepared = sameAgbot(w, caller);
      return { ...prepared, path: `${prepared.path}/msgs` };
    },
    expect: userOrAgbot(200),
  },
  {
    operation: 'GET /v1/orgs/{organization}/agbots/{agreementbot}/msgs',
    variant: '?maxmsgs=1',
    prepare: async (w, caller) => {
      await agbot1Message(w);
      const prepared = sameAgbot(w, caller);
      return { ...prepared, path: `${prepared.path}/msgs`, query: { maxmsgs: '1' } };
    },
    expect: userOrAgbot(200),
  },
  {
    operation: 'GET /v1/orgs/{organization}/agbots/{agreementbot}/msgs/{message}',
    prepare: async (w, caller) => {
      const prepared = sameAgbot(w, caller);
      return { ...prepared, path: `${prepared.path}/msgs/${await agbot1Message(w)}` };
    },
    expect: userOrAgbot(200),
  },
  {
    // The id is checked before authorization (docs/exchange.md#order-of-checks): every authenticated caller → 400.
    operation: 'GET /v1/orgs/{organization}/agbots/{agreementbot}/msgs/{message}',
    variant: 'non-integer id',
    prepare: (w, caller) => {
      const prepared = sameAgbot(w, caller);
      return { ...prepared, path: `${prepared.path}/msgs/first` };
    },
    expect: Object.fromEntries(Object.keys(userOrAgbot(400)).map((caller) => [caller, 400])),
  },
  {
    // Nodes of the agbot's org (upstream: any node, of any org); nobody else (upstream: root and org admins hold the permission but
    // are refused as non-nodes with a misleading 400; here 403).
    operation: 'POST /v1/orgs/{organization}/agbots/{agreementbot}/msgs',
    prepare: async (w, caller) => {
      const prepared = sameAgbot(w, caller);
      return {
        path: `${prepared.path}/msgs`,
        as: prepared.as ?? (await senderFor(w, caller)),
        body: MESSAGE,
      };
    },
    expect: onlyNodes(201),
  },
  {
    // A node without a public key cannot have its messages answered: 400, nothing stored.
    operation: 'POST /v1/orgs/{organization}/agbots/{agreementbot}/msgs',
    variant: 'node without a public key',
    prepare: (w) => ({ path: `${agbotPath(w.same.agbot.user)}/msgs`, body: MESSAGE }),
    expect: { 'node (same org)': 400, 'node (other org)': 403 },
  },
  {
    operation: 'DELETE /v1/orgs/{organization}/agbots/{agreementbot}/msgs/{message}',
    prepare: async (w, caller) => {
      const prepared = await throwawayAgbot(w, caller);
      const id = await postMessage(w, prepared.path);
      return { path: `${prepared.path}/msgs/${id}`, as: prepared.as };
    },
    expect: ownerOrAgbot(204),
  },
];
