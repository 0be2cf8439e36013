import { IBM_ORG } from '#lib/auth/caller';

/**
 * Which change-feed rows a reader may see (upstream's ChangesRoutes filters), and whom a row wakes
 * on the signal channel (docs/signals.md): exactly the readers whose feed would show it, so a
 * signal never tells anyone more than their next poll would.
 */
export interface FeedRow {
  resource: string;
  org: string;
  id: string;
  operation: string;
  public?: boolean;
  /** Written by the node it is about (tables/feed/changes.ts `Change.byItsNode`). */
  byItsNode?: boolean;
}

interface FeedReader {
  kind: 'root' | 'user' | 'node' | 'agbot';
  org: string;
  id: string;
}

/** Rows about the catalog and the org that every node may see. */
const NODE_VISIBLE = new Set([
  'org',
  'service',
  'servicepolicies',
  'servicekeys',
  'servicedockauths',
  'mgmtpolicy',
  'agentfileversion',
]);

/** Rows about one node: a node sees them only when they are about itself. */
const ABOUT_A_NODE = new Set([
  'node',
  'nodepolicies',
  'nodeagreements',
  'nodestatus',
  'nodeerrors',
  'nodemsgs',
  'nodemgmtpolstatus',
  'services_configstate',
]);

/**
 * Rows agbots never see, and agreement rows they see only when deleted. Node status rows are
 * shown (upstream hides them): the agbot counts what runs from them (docs/agbot.md "Status").
 */
const HIDDEN_FROM_AGBOTS = new Set(['nodemsgs']);
/**
 * Rows a reader sees but is not woken for: a node's status and errors are the node's own writes,
 * and an agbot reads the status rows at its next round (a signal each would cost a post per agbot
 * per workload change, for a count).
 */
const WAKE_NOBODY = new Set(['nodestatus', 'nodeerrors']);
const AGREEMENT_ROWS = new Set(['nodeagreements', 'agbotagreements']);

/** An agbot's own rows that its round acts on: its mailbox and what it serves. */
const AGBOT_OWN_INPUTS = new Set(['agbotmsgs', 'agbotbusinesspols', 'agbotpatterns']);

/** Which change rows `reader` may read. */
export function visibleTo(reader: FeedReader): (row: FeedRow) => boolean {
  switch (reader.kind) {
    case 'node':
      return (row) =>
        NODE_VISIBLE.has(row.resource) ||
        (ABOUT_A_NODE.has(row.resource) && row.org === reader.org && row.id === reader.id);
    case 'agbot':
      return (row) =>
        !HIDDEN_FROM_AGBOTS.has(row.resource) &&
        !(AGREEMENT_ROWS.has(row.resource) && row.operation !== 'deleted');
    default:
      return () => true;
  }
}

/** Whether a row is about one node (`org/id` = the row's org and id). */
export const aboutANode = (row: Pick<FeedRow, 'resource'>): boolean => ABOUT_A_NODE.has(row.resource);

/** Whether every node of the row's org may see it (public ones: every node of every org). */
export const sharedWithNodes = (row: Pick<FeedRow, 'resource'>): boolean => NODE_VISIBLE.has(row.resource);

/**
 * The node (`org/id`) a row wakes: the one it is about (a node acts only on rows about itself),
 * unless the node wrote the row itself: it knows what it wrote, and a wake would cost it a feed
 * read, a heartbeat and a mailbox read for nothing (the agent's "Finalized Agreement" row of each
 * agreement, and its deletion when the agreement ends).
 */
export const nodeWokenBy = (row: FeedRow): string | undefined =>
  ABOUT_A_NODE.has(row.resource) && !WAKE_NOBODY.has(row.resource) && row.byItsNode !== true
    ? `${row.org}/${row.id}`
    : undefined;

/**
 * Whether a row wakes `agbot`: one it may read, in an org it reads (its own; every org for a
 * multi-tenant agbot of org IBM; public catalog rows), and, among agbot rows, only its own inputs.
 */
export function agbotWokenBy(agbot: { org: string; id: string }, row: FeedRow): boolean {
  if (WAKE_NOBODY.has(row.resource) || !visibleTo({ kind: 'agbot', ...agbot })(row)) return false;
  if (row.resource.startsWith('agbot'))
    return AGBOT_OWN_INPUTS.has(row.resource) && row.org === agbot.org && row.id === agbot.id;
  return row.org === agbot.org || agbot.org === IBM_ORG || row.public === true;
}
