import { type HeartbeatIntervals, resolveHeartbeatIntervals } from '#lib/protocol/heartbeat-intervals';

/**
 * A node's state as the console shows it (docs/console.md#node-states), computed from its last
 * heartbeat against its own heartbeat interval and whether its signal connection is open:
 *
 * - `online`: a signal connection is open, or the last heartbeat is at most 2 × maxInterval old;
 * - `late`: at most 10 × maxInterval old;
 * - `offline`: older;
 * - `never-seen`: registered (a pattern or a public key) but no heartbeat yet;
 * - `unregistered`: neither a pattern nor a public key (made by a user, never registered by an agent,
 *   or unregistered since).
 *
 * maxInterval is the node's, else its org's, else the agent's default (120 s), the rule the agbot
 * sizes its protocol timeouts by (docs/agent.md, "Pace").
 */
export const NODE_STATES = ['online', 'late', 'offline', 'never-seen', 'unregistered'] as const;
export type NodeState = (typeof NODE_STATES)[number];

export const ONLINE_INTERVALS = 2;
export const LATE_INTERVALS = 10;

export interface StateInput {
  registered: boolean;
  lastHeartbeat: string | undefined;
  connected: boolean;
  /** The node's own maxInterval in seconds (0: none set). */
  maxInterval: number;
}

/** Stored timestamps may carry upstream's zone suffix (`…Z[UTC]`). */
export const instantOf = (value: string | undefined): number =>
  value ? Date.parse(value.replace(/\[.*\]$/, '')) : Number.NaN;

export function nodeState(
  node: StateInput,
  org: Partial<HeartbeatIntervals> | undefined,
  now: number,
): NodeState {
  if (!node.registered) return 'unregistered';
  if (node.connected) return 'online';
  const seen = instantOf(node.lastHeartbeat);
  if (Number.isNaN(seen)) return 'never-seen';
  const { maxInterval } = resolveHeartbeatIntervals({ maxInterval: node.maxInterval }, org);
  const age = now - seen;
  if (age <= ONLINE_INTERVALS * maxInterval * 1000) return 'online';
  if (age <= LATE_INTERVALS * maxInterval * 1000) return 'late';
  return 'offline';
}

/** The last-seen histogram's buckets (upper bounds in seconds; the last is open). */
export const LAST_SEEN_BUCKETS = [
  { label: '< 1 min', upTo: 60 },
  { label: '1–5 min', upTo: 300 },
  { label: '5–15 min', upTo: 900 },
  { label: '15–60 min', upTo: 3600 },
  { label: '1–24 h', upTo: 86_400 },
  { label: '> 24 h', upTo: Number.POSITIVE_INFINITY },
] as const;

/** The bucket index of a heartbeat `ageSeconds` old. */
export const lastSeenBucket = (ageSeconds: number): number =>
  LAST_SEEN_BUCKETS.findIndex((bucket) => ageSeconds < bucket.upTo);
