import { instantOf, LAST_SEEN_BUCKETS, lastSeenBucket, nodeState } from '#lib/fleet/node-state';
import { resolveHeartbeatIntervals } from '#lib/protocol/heartbeat-intervals';
import { type NodeExtras, type NodeSummaryItem, nodeExtras, pageOrgNodes } from '#tables/node/page';
import { getFleetSnapshot, putFleetSnapshot } from '#tables/org/fleet-snapshot';
import { getOrg } from '#tables/org/records';
import type { FleetSummary, NodeSummariesQuery, NodeSummary } from './schemas.ts';

type OrgIntervals = { minInterval?: number; maxInterval?: number; intervalAdjustment?: number } | undefined;

/** The org's heartbeat intervals (one GetItem), what a node without its own is measured against. */
export const orgIntervals = async (org: string): Promise<OrgIntervals> =>
  (await getOrg(org))?.heartbeatIntervals;

const tally = (states: string[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const state of states) counts[state || '-'] = (counts[state || '-'] ?? 0) + 1;
  return counts;
};

/** What an agent's surfaced error says (upstream's `message`, else its event code), at most 300 characters. */
const errorText = (error: Record<string, unknown>): string =>
  String(error.message ?? error.event_code ?? JSON.stringify(error)).slice(0, 300);

/** One node's summary from its record's page item and its partition's extras. */
export function summarize(
  item: NodeSummaryItem,
  extras: NodeExtras | undefined,
  org: OrgIntervals,
  now: number,
): NodeSummary {
  const lastHeartbeat = extras?.lastHeartbeat ?? item.lastHeartbeat;
  const connected = extras?.connected ?? false;
  const state = nodeState(
    { registered: item.registered, lastHeartbeat, connected, maxInterval: item.maxInterval },
    org,
    now,
  );
  return {
    id: `${item.org}/${item.id}`,
    name: item.name,
    owner: item.owner,
    arch: item.arch,
    nodeType: item.nodeType,
    pattern: item.pattern,
    agentVersion: item.agentVersion,
    state,
    ...(lastHeartbeat ? { lastHeartbeat } : {}),
    connected,
    heartbeatSeconds: resolveHeartbeatIntervals({ maxInterval: item.maxInterval }, org).maxInterval,
    agreements: item.agreementStates.length,
    agreementStates: tally(item.agreementStates),
    errors: extras?.errors.length ?? 0,
    ...(extras?.errors[0] ? { firstError: errorText(extras.errors[0]) } : {}),
  };
}

/** The filters only the node's own partition can answer (state, errors) and the agent version. */
function keeps(query: NodeSummariesQuery) {
  return (node: NodeSummary): boolean =>
    (query.state === undefined || node.state === query.state) &&
    (query.errors === undefined || node.errors > 0 === query.errors) &&
    (query.version === undefined || (node.agentVersion || '-') === query.version);
}

/** Node records read for one page at most, whatever the filters keep (bounded work per request). */
export const MAX_SCANNED = 2000;

/**
 * A page of summaries: Query pages of `limit` node records (gsi1, in id order; arch, pattern and
 * owner filtered by DynamoDB), each followed by its nodes' liveness and errors items (BatchGetItem),
 * until `limit` nodes pass the other filters or MAX_SCANNED records were read. `next` resumes after
 * the last node read, so a filtered page can be short and still have a next.
 */
export async function summaryPage(
  org: string,
  query: NodeSummariesQuery,
  ownOnly: string | undefined,
  now: number,
): Promise<{ nodes: NodeSummary[]; next: string | undefined; scanned: number }> {
  const limit = query.limit ?? 100;
  const intervals = await orgIntervals(org);
  const keep = keeps(query);
  const nodes: NodeSummary[] = [];
  let after = query.after;
  let scanned = 0;
  for (;;) {
    const page = await pageOrgNodes(org, {
      limit,
      after,
      idPrefix: query.prefix,
      owner: ownOnly ?? query.owner,
      arch: query.arch,
      pattern: query.pattern === '-' ? '' : query.pattern,
    });
    const extras = await nodeExtras(page.nodes, now);
    scanned += page.nodes.length;
    for (const item of page.nodes) {
      const summary = summarize(item, extras.get(`${item.org}/${item.id}`), intervals, now);
      if (!keep(summary)) continue;
      nodes.push(summary);
      if (nodes.length === limit) {
        const last = page.nodes.at(-1);
        // A full page: resume after this node unless it was the org's last.
        const more = item !== last || page.next !== undefined;
        return { nodes, next: more ? item.id : undefined, scanned };
      }
    }
    after = page.next;
    if (after === undefined || scanned >= MAX_SCANNED) return { nodes, next: after, scanned };
  }
}

/** How long a fleet summary is answered as it was computed (the console refreshes every 30 s). */
export const FLEET_SUMMARY_TTL_MS = 30_000;
const computed = new Map<string, FleetSummary>();

/** Forgets what this instance computed (as a new instance would start). */
export const forgetFleetSummaries = (): void => computed.clear();

/**
 * The fleet summary, computed at most once per FLEET_SUMMARY_TTL_MS per org and owner: from this
 * instance's memory, else from the last one kept in the table (one GetItem) when it is younger than
 * `maxAgeMs` (default the TTL; the console's first render accepts an older one, labelled with its
 * `at`, and asks again for a fresh one), else computed from every node and kept in both.
 */
export async function recentFleetSummary(
  org: string,
  ownOnly: string | undefined,
  now: number,
  maxAgeMs = FLEET_SUMMARY_TTL_MS,
): Promise<FleetSummary> {
  const key = `${org}\n${ownOnly ?? ''}`;
  const young = (summary: FleetSummary | undefined, age: number): summary is FleetSummary =>
    summary !== undefined && now >= Date.parse(summary.at) && now - Date.parse(summary.at) < age;
  const kept = computed.get(key);
  if (young(kept, Math.max(maxAgeMs, FLEET_SUMMARY_TTL_MS))) return kept;
  const stored = (await getFleetSnapshot(org, ownOnly))?.summary as FleetSummary | undefined;
  if (young(stored, Math.max(maxAgeMs, FLEET_SUMMARY_TTL_MS))) {
    if (young(stored, FLEET_SUMMARY_TTL_MS)) computed.set(key, stored);
    return stored;
  }
  const fresh = await fleetSummary(org, ownOnly, now);
  if (computed.size > 1000) computed.clear();
  computed.set(key, fresh);
  await putFleetSnapshot(org, ownOnly, { at: fresh.at, summary: fresh });
  return fresh;
}

/** Node records one fleet summary reads at most (past them `truncated`). */
export const FLEET_SUMMARY_MAX_NODES = 50_000;
const PAGE = 1000;
const ERROR_NODES = 20;

/**
 * The org's fleet in numbers, never its nodes: Query pages of 1,000 node records, each page's
 * liveness and errors read while the next page is queried.
 */
export async function fleetSummary(
  org: string,
  ownOnly: string | undefined,
  now: number,
): Promise<FleetSummary> {
  const intervals = await orgIntervals(org);
  const summaries: Promise<NodeSummary[]>[] = [];
  let after: string | undefined;
  let read = 0;
  do {
    const page = await pageOrgNodes(org, { limit: PAGE, after, ...(ownOnly ? { owner: ownOnly } : {}) });
    read += page.nodes.length;
    const pageSummaries = nodeExtras(page.nodes, now, 16).then((extras) =>
      page.nodes.map((item) => summarize(item, extras.get(`${item.org}/${item.id}`), intervals, now)),
    );
    // Handled now: a later Query that throws must not leave this one's failure unhandled (it is
    // rethrown by the Promise.all below when it is the first).
    pageSummaries.catch(() => undefined);
    summaries.push(pageSummaries);
    after = page.next;
  } while (after !== undefined && read < FLEET_SUMMARY_MAX_NODES);
  const nodes = (await Promise.all(summaries)).flat();
  const lastSeen = LAST_SEEN_BUCKETS.map((bucket) => ({ label: bucket.label, count: 0 }));
  const agreementStates: string[] = [];
  for (const node of nodes) {
    const seen = instantOf(node.lastHeartbeat);
    if (!Number.isNaN(seen)) {
      const bucket = lastSeen[lastSeenBucket(Math.max(0, now - seen) / 1000)];
      if (bucket) bucket.count++;
    }
    for (const [state, count] of Object.entries(node.agreementStates))
      for (let i = 0; i < count; i++) agreementStates.push(state);
  }
  const withErrors = nodes.filter((node) => node.errors > 0);
  return {
    org,
    at: new Date(now).toISOString(),
    total: nodes.length,
    byState: tally(nodes.map((node) => node.state)),
    byArch: tally(nodes.map((node) => node.arch)),
    byVersion: tally(nodes.map((node) => node.agentVersion)),
    byPattern: tally(nodes.map((node) => node.pattern)),
    byType: tally(nodes.map((node) => node.nodeType)),
    lastSeen: lastSeen as FleetSummary['lastSeen'],
    withErrors: withErrors.length,
    errorNodes: withErrors.slice(0, ERROR_NODES).map((node) => ({
      id: node.id,
      name: node.name,
      errors: node.errors,
      first: node.firstError ?? '',
    })),
    agreements: { total: agreementStates.length, byState: tally(agreementStates) },
    truncated: after !== undefined,
  };
}
