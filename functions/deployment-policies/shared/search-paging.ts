import { json } from '#lib/http/responses';
import { deleteSearchOffset, putSearchOffset, type SearchOffset } from '#tables/agbot/search-offsets';
import type { DeploymentPolicyRecord } from '#tables/deployment-policy/records';
import type { SearchNode } from '#tables/node/search';

/**
 * Upstream's paging of the deployment-policy search (docs/exchange-catalog.md#policy-search, steps 3–5): one
 * offset (a node lastUpdated) and session per agbot and policy.
 */
interface PageOutcome {
  /** The offset the next page starts from, if any. */
  offset?: string | undefined;
  /** A full page: as many rows as asked. */
  full: boolean;
  offsetUpdated: boolean;
}

/** Step 3 and 5: the new offset, only when `numEntries` was given. */
export function nextPage(
  rows: SearchNode[],
  context: { want: number | undefined; stored: string | undefined; sameSession: boolean },
): PageOutcome {
  const full = context.want !== undefined && rows.length === context.want;
  if (context.want === undefined) return { full, offsetUpdated: false };
  const last = rows.at(-1)?.lastUpdated;
  let offset: string | undefined;
  if (last !== undefined && (context.stored === undefined || (context.stored < last && full))) offset = last;
  else if (context.sameSession && full) offset = context.stored;
  return { offset, full, offsetUpdated: offset !== undefined && offset !== context.stored };
}

/** Step 4: keep the offset for a full page of the same (or a first) session; otherwise forget it. */
export async function savePaging(
  agbot: { org: string; id: string },
  policy: DeploymentPolicyRecord,
  page: PageOutcome & {
    stored: SearchOffset | undefined;
    session: string | undefined;
    want: number | undefined;
  },
): Promise<void> {
  const keep =
    page.want !== undefined &&
    page.session !== undefined &&
    page.full &&
    page.offset !== undefined &&
    (page.stored === undefined || page.stored.session === page.session);
  if (keep) await putSearchOffset(agbot, policy, page.offset as string, page.session as string);
  else if (page.stored) await deleteSearchOffset(agbot, policy);
}

/** Step 1: another session than the stored one → 409 with the stored state (anax adopts `session`). */
export const pagingConflict = (caller: string, stored: SearchOffset) =>
  json(409, {
    agbot: caller,
    offset: stored.offset,
    session: stored.session,
    msg: `the search session does not match the stored session '${stored.session}'; adopt it and search again`,
  });
