import type * as z from 'zod';
import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { type Caller, isMultiTenantAgbot } from '#lib/auth/caller';
import { visibleTo } from '#lib/feed/visibility';
import { notFound } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { SIGNALS_HEADER, signalsUrl } from '#lib/signals/address';
import { isoTimestamp } from '#lib/time';
import { EXCHANGE_VERSION } from '#lib/version';
import { recordAgbotHeartbeat } from '#tables/agbot/records';
import { numberedUpTo } from '#tables/feed/changes';
import { readChanges } from '#tables/feed/reads';
import { recordHeartbeat } from '#tables/node/records';
import { groupChanges } from './group-changes.ts';
import type { changesResponse } from './responses.ts';
import { changesRoutes } from './routes.ts';

/** Upstream reads rows changed up to 10 s before the `lastUpdated` a caller gives. */
const LAST_UPDATED_SLACK_MS = 10_000;

/**
 * POST /v1/orgs/{organization}/changes: what changed since the caller's `changeId` (or
 * `lastUpdated`), grouped per resource. Anyone who may read the org; a node or agbot caller's
 * lastHeartbeat is set as a side effect (docs/exchange.md#change-feed). One request reads a bounded number
 * of feed pages (tables/feed/reads.ts): when they run out first, `hitMaxRecords` is true and
 * `mostRecentChangeId` is where the reader continues (`changeId` = it + 1), as after a full page.
 */
export const handler = endpoint(changesRoutes.operations.postChanges, {
  authorize: ({ caller, path }) => authorize(caller, { type: 'org', org: path.organization }, 'READ'),
  async handle({ caller, path, body, deps }) {
    const max = Math.min(body.maxRecords ?? 0, deps.config().limits.maxChangeRecords);
    const byId = (body.changeId ?? 0) > 0;
    const since =
      !byId && body.lastUpdated
        ? new Date(Date.parse(body.lastUpdated.replace(/\[.*\]$/, '')) - LAST_UPDATED_SLACK_MS).toISOString()
        : undefined;
    const now = deps.clock.now();
    const beat = heartbeat(caller, isoTimestamp(deps.clock));
    // A lastUpdated still to come matches no row: answer at once (pending rows will be numbered
    // above the newest id, so a reader continuing from it misses nothing).
    if (since !== undefined && Date.parse(since) > now.getTime()) {
      const [, nothing] = await Promise.all([beat, nothingYet()]);
      return announceSignals(json(201, nothing), caller);
    }
    // The heartbeat and the read are independent: an idle poll is these two calls (tables/README.md).
    const [, { rows, newest, readUpTo }] = await Promise.all([
      beat,
      readChanges(
        {
          orgs: readableOrgs(caller, path.organization, body.orgList),
          fromId: byId ? (body.changeId as number) : 0,
          ...(since ? { since } : {}),
          visible: visibleTo(caller),
          // A node reads its own feed and the one all nodes share, never its org's whole feed.
          ...(caller.kind === 'node' && caller.org === path.organization
            ? { node: { org: caller.org, id: caller.id } }
            : {}),
          max,
          // A node never waits for another reader's numbering: what it is woken for was numbered
          // before the signal went out (functions/signals/dispatch.ts), and a thousand nodes
          // woken together would each watch the numberer (tables/README.md, "The change feed").
          waitForPending: caller.kind !== 'node',
        },
        now,
      ),
    ]);
    const answer: z.infer<typeof changesResponse> = {
      changes: groupChanges(rows),
      // Cut short by the page budget: continue after what was examined. Else the newest id
      // numbered when the read began.
      mostRecentChangeId: readUpTo ?? (rows.length > 0 ? (rows.at(-1)?.changeId as number) : newest),
      hitMaxRecords: (max > 0 && rows.length === max) || readUpTo !== undefined,
      exchangeVersion: EXCHANGE_VERSION,
    };
    return announceSignals(json(201, answer), caller);
  },
});

/**
 * Tells a node or agbot where the signal channel is (docs/signals.md), so it needs no setting of
 * its own; upstream's agent ignores the header and keeps polling.
 */
function announceSignals<R extends { headers?: Record<string, string> }>(response: R, caller: Caller): R {
  const url = signalsUrl();
  if (!url || (caller.kind !== 'node' && caller.kind !== 'agbot')) return response;
  return { ...response, headers: { ...response.headers, [SIGNALS_HEADER]: url } };
}

async function nothingYet(): Promise<z.infer<typeof changesResponse>> {
  return {
    changes: [],
    mostRecentChangeId: await numberedUpTo(),
    hitMaxRecords: false,
    exchangeVersion: EXCHANGE_VERSION,
  };
}

/** `{org}` (and public rows); root and multi-tenant agbots may add other orgs, `*` for all. */
function readableOrgs(caller: Caller, org: string, orgList: string[] | undefined): string[] {
  const mayListOrgs = caller.kind === 'root' || isMultiTenantAgbot(caller);
  return mayListOrgs && orgList ? [org, ...orgList] : [org];
}

async function heartbeat(caller: Caller, at: string): Promise<void> {
  const found =
    caller.kind === 'node'
      ? await recordHeartbeat(caller.org, caller.id, at)
      : caller.kind === 'agbot'
        ? await recordAgbotHeartbeat(caller.org, caller.id, at)
        : true;
  if (!found) throw notFound(`Node or agbot '${caller.fullId}' not found`);
}
