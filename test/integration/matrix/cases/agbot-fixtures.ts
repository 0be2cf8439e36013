import { randomBytes } from 'node:crypto';
import type { Credentials } from '#test/support/http';
import type { CallerKey, Prepared, World } from '#test/support/matrix';
import { expectStatus, freshId } from '#test/support/world';

/**
 * Records the agbot matrices work on, made over HTTP as clients would. Reads target `same`'s
 * agbot1 (owned by `user (same org)`); cases that change state get a throwaway agbot of the same
 * owner. `agbot (itself)` is the target agbot calling; `agbot (same org, another)` another agbot
 * of the org, owned by another user.
 */
export const agbotPath = (agbot: string) => {
  const [org, id] = agbot.split('/');
  return `/v1/orgs/${org}/agbots/${id}`;
};

/** A new agbot owned by `owner`, created with PUT. */
export async function createAgbotOverHttp(w: World, owner: Credentials): Promise<Credentials> {
  const [org] = owner.user.split('/');
  const id = freshId('agbot');
  const token = `agbot-token-${randomBytes(4).toString('hex')}`;
  const path = `/v1/orgs/${org}/agbots/${id}`;
  const body = { token, name: id, publicKey: 'agbot-public-key' };
  expectStatus(await w.http('PUT', path, { auth: owner, body }), 200, `PUT ${path}`);
  return { user: `${org}/${id}`, secret: token };
}

/** Who calls as `agbot (itself)` / `agbot (same org, another)` when the target is `agbot`. */
export function agbotCaller(w: World, caller: CallerKey, agbot: Credentials): Credentials | undefined {
  if (caller === 'agbot (itself)') return agbot;
  if (caller === 'agbot (same org, another)') return agbot === w.same.agbot ? w.same.agbot2 : w.same.agbot;
  return undefined;
}

/** A throwaway agbot of `user (same org)`, and the credentials the caller uses on it. */
export async function throwawayAgbot(
  w: World,
  caller: CallerKey,
): Promise<Prepared & { agbot: Credentials }> {
  const agbot = await createAgbotOverHttp(w, w.same.user);
  return { agbot, path: agbotPath(agbot.user), as: agbotCaller(w, caller, agbot) };
}

/** agbot1 of `same`, which reads target. */
export const sameAgbot = (w: World, caller: CallerKey): Prepared => ({
  path: agbotPath(w.same.agbot.user),
  as: agbotCaller(w, caller, w.same.agbot),
});

export async function expectOk(w: World, method: string, path: string, body: unknown, status: number) {
  return expectStatus(await w.http(method, path, { auth: w.same.user, body }), status, `${method} ${path}`);
}

/** Runs `make` once per world (fixtures several cases share). */
export function once<T>(make: (w: World) => Promise<T>): (w: World) => Promise<T> {
  const made = new WeakMap<World, Promise<T>>();
  return (w) => {
    let result = made.get(w);
    if (!result) {
      result = make(w);
      made.set(w, result);
    }
    return result;
  };
}

/**
 * Whoever may write the agbot (for the children of an agbot, and writes of the agbot
 * itself): whoever may write the agbot — its owner, org admins, hub admins (docs/exchange.md#from-access-to-permission:
 * WRITE_ALL_AGBOTS in any org), root, the agbot itself. Other users, nodes and other agbots: 403.
 */
export const ownerOrAgbot = (ok: number): Partial<Record<CallerKey, number>> => ({
  root: ok,
  'hub admin': ok,
  'org admin (same org)': ok,
  'org admin (other org)': 403,
  'user (same org, owner)': ok,
  'user (same org, not owner)': 403,
  'user (other org)': 403,
  'node (same org)': 403,
  'node (other org)': 403,
  'agbot (itself)': ok,
  'agbot (same org, another)': 403,
  'agbot (other org)': 403,
});

/** Readers of an agbot: any user who may read it (its org, hub admins, root) and itself. */
export const userOrAgbot = (ok: number): Partial<Record<CallerKey, number>> => ({
  ...ownerOrAgbot(ok),
  'user (same org, not owner)': ok,
});
