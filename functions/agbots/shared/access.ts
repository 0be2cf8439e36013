import { type Access, authorize, type Target } from '#lib/auth/access';
import { type Caller, isUserType } from '#lib/auth/caller';
import { accessDenied, notFound } from '#lib/http/errors';
import { type AgbotRecord, getAgbot } from '#tables/agbot/records';
import type { AgbotPath } from './schemas.ts';

export { type AgbotPath, agbotPath } from './schemas.ts';

export const agbotId = (path: AgbotPath): string => `${path.organization}/${path.agreementbot}`;
export const agbotNotFound = (path: AgbotPath) => notFound(`agbot '${agbotId(path)}' not found`);

const agbotTarget = (path: AgbotPath, agbot: AgbotRecord | undefined): Target => ({
  type: 'agbot',
  org: path.organization,
  id: path.agreementbot,
  exists: agbot !== undefined,
  owner: agbot?.owner,
});

/**
 * Loads the agbot once and throws 403/404 unless the caller may `access` it (docs/exchange.md#authorization: a
 * missing agbot counts as the caller's own, so a same-org user may create it). The agbot, or
 * undefined, becomes the handler's `target`.
 */
export async function authorizeAgbot(
  caller: Caller,
  path: AgbotPath,
  access: Access,
): Promise<AgbotRecord | undefined> {
  const agbot = await getAgbot(path.organization, path.agreementbot);
  authorize(caller, agbotTarget(path, agbot), access);
  return agbot;
}

/** For the children routes: the agbot must exist (404 after authorization, as upstream). */
export async function authorizeExistingAgbot(
  caller: Caller,
  path: AgbotPath,
  access: Access,
): Promise<AgbotRecord> {
  const agbot = await authorizeAgbot(caller, path, access);
  if (!agbot) throw agbotNotFound(path);
  return agbot;
}

export const isTheAgbot = (caller: Caller, path: AgbotPath): caller is Extract<Caller, { kind: 'agbot' }> =>
  caller.kind === 'agbot' && caller.org === path.organization && caller.id === path.agreementbot;

/**
 * Reads of an agbot (docs/compatibility.md#agbots-and-agbot-agreements): users who may read it (any user of its org,
 * hub admins, root) and the agbot itself; nodes and other agbots get 403.
 */
export async function authorizeAgbotReader(
  caller: Caller,
  path: AgbotPath,
): Promise<AgbotRecord | undefined> {
  const agbot = await authorizeAgbot(caller, path, 'READ');
  if (!isUserType(caller) && !isTheAgbot(caller, path)) {
    throw accessDenied(`Access denied: '${caller.fullId}' may not read agbot '${agbotId(path)}'`);
  }
  return agbot;
}

/**
 * Reads of an agbot's children (docs/compatibility.md#agbot-served-patterns-and-policies): whoever may write the
 * agbot (its owner, org admins, hub admins, root, the agbot itself). Checked as a READ first, so
 * a missing agbot of another org answers 404 as every read does.
 */
export async function authorizeAgbotOwnerRead(
  caller: Caller,
  path: AgbotPath,
): Promise<AgbotRecord | undefined> {
  const agbot = await authorizeAgbot(caller, path, 'READ');
  authorize(caller, agbotTarget(path, agbot), 'WRITE');
  return agbot;
}
