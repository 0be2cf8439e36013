import * as z from 'zod';
import { type Access, authorize } from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { notFound } from '#lib/http/errors';
import { idSegment } from '#lib/ids';
import { type AgbotRecord, getAgbot } from '#tables/agbot-records';

export const agbotPath = z.object({ organization: idSegment, agreementbot: idSegment });
export type AgbotPath = z.infer<typeof agbotPath>;

export const agbotId = (path: AgbotPath): string => `${path.organization}/${path.agreementbot}`;
export const agbotNotFound = (path: AgbotPath) => notFound(`agbot '${agbotId(path)}' not found`);

/**
 * Loads the agbot once and throws 403/404 unless the caller may `access` it (reference §3: a
 * missing agbot counts as the caller's own, so a same-org user may create it). The agbot, or
 * undefined, becomes the handler's `target`.
 */
export async function authorizeAgbot(
  caller: Caller,
  path: AgbotPath,
  access: Access,
): Promise<AgbotRecord | undefined> {
  const agbot = await getAgbot(path.organization, path.agreementbot);
  authorize(
    caller,
    {
      type: 'agbot',
      org: path.organization,
      id: path.agreementbot,
      exists: agbot !== undefined,
      owner: agbot?.owner,
    },
    access,
  );
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
