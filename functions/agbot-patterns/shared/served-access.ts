import {
  agbotNotFound,
  authorizeAgbotOwnerRead,
  authorizeExistingAgbot,
} from '#functions/agbots/shared/access';
import type { AgbotPath } from '#functions/agbots/shared/schemas';
import type { Caller } from '#lib/auth/caller';
import type { AgbotRecord } from '#tables/agbot/records';

/**
 * Who may touch an agbot's served patterns and policies
 * (docs/compatibility.md#agbot-served-patterns-and-policies): whoever may write the agbot (its owner, org admins, hub
 * admins, root, the agbot itself).
 * Nodes and other users or agbots get 403; a missing agbot answers 404.
 */
export async function authorizeServedRead(caller: Caller, path: AgbotPath): Promise<AgbotRecord> {
  const agbot = await authorizeAgbotOwnerRead(caller, path);
  if (!agbot) throw agbotNotFound(path);
  return agbot;
}

export const authorizeServedWrite = (caller: Caller, path: AgbotPath): Promise<AgbotRecord> =>
  authorizeExistingAgbot(caller, path, 'WRITE');
