import { type Access, authorize } from '#lib/auth/access';
import { type Caller, isMultiTenantAgbot } from '#lib/auth/caller';
import { HttpError, notFound } from '#lib/http/errors';
import { CONFLICT, type Conflict, optimisticUpdate } from '#tables/kernel/optimistic-update';
import { getNode, type NodeRecord } from '#tables/node/records';
import type { NodePath } from './schemas.ts';

export { CONFLICT } from '#tables/kernel/optimistic-update';
export { type NodePath, nodePath } from './schemas.ts';

export const resourceId = (path: NodePath): string => `${path.organization}/${path.node}`;
export const nodeNotFound = (path: NodePath) => notFound(`node '${resourceId(path)}' not found`);
/** 409: the node kept changing under this request's writes. */
export const nodeConflict = (path: NodePath) =>
  new HttpError(
    409,
    'already-exists',
    `node '${resourceId(path)}' is being changed by another request; try again`,
  );

/** The caller is the node `path` names: its credentials, checked against its record, say so. */
export const isTheNode = (caller: Caller, path: NodePath): boolean =>
  caller.kind === 'node' && caller.org === path.organization && caller.id === path.node;

/**
 * Whether `caller` may read node `path` whatever its record holds, checked without reading it: the
 * node itself, or an agbot serving the node's org (its own; any org for a multi-tenant agbot of org
 * IBM). Neither right depends on the node's owner, so a route that reads only a child of the node
 * (its status) skips the record: a missing node finds no child, and answers 404 from that read.
 * Anyone else (users, whose right depends on the owner; other orgs' agbots, answered 404 or 403 by
 * whether the node exists) goes through authorizeNode.
 */
export function readsNodeWithoutRecord(caller: Caller, path: NodePath): boolean {
  const serves =
    isTheNode(caller, path) ||
    (caller.kind === 'agbot' && (caller.org === path.organization || isMultiTenantAgbot(caller)));
  if (serves)
    authorize(caller, { type: 'node', org: path.organization, id: path.node, exists: true }, 'READ');
  return serves;
}

/**
 * Loads the node once and throws 403/404 unless the caller may `access` it (docs/exchange.md#authorization: a
 * missing node counts as the caller's own, so a same-org user may create it). The node, or
 * undefined, becomes the handler's `target`.
 */
export async function authorizeNode(
  caller: Caller,
  path: NodePath,
  access: Access,
): Promise<NodeRecord | undefined> {
  const node = await getNode(path.organization, path.node);
  checkNodeAccess(caller, path, node, access);
  return node;
}

/** Throws 403/404 unless the caller may `access` the node as read (`undefined`: there is none). */
export function checkNodeAccess(
  caller: Caller,
  path: NodePath,
  node: NodeRecord | undefined,
  access: Access,
): void {
  authorize(
    caller,
    { type: 'node', org: path.organization, id: path.node, exists: node !== undefined, owner: node?.owner },
    access,
  );
}

/**
 * Runs a read-check-write `step` on the node read by `authorize`; when another request changed the
 * node in between, reads it again (re-checking access, which may have changed) and retries, then
 * gives up with 409.
 */
export async function writeWithReread<T>(
  caller: Caller,
  path: NodePath,
  first: NodeRecord | undefined,
  step: (node: NodeRecord | undefined) => Promise<T | Conflict>,
): Promise<T> {
  const result = await optimisticUpdate(first, {
    write: step,
    reread: () => authorizeNode(caller, path, 'WRITE'),
  });
  if (result === CONFLICT) throw nodeConflict(path);
  return result;
}
