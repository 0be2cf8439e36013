/**
 * Which records of the table's stream start a round of the in-stack agbot (docs/agbot.md, "In the
 * stack"): new change rows (a write's pending row, `PENDINGCHANGES`, tables/feed/changes.ts) that the
 * agbot's round acts on (agbot/rounds/feed.ts): catalog and node rows of any org (the built-in
 * agbot serves every org), deleted node agreements (a node cancelled), and its own mailbox and
 * served rows. Everything else (heartbeats, statuses, node mailboxes, other agbots' rows, the
 * agbot's own agreement and record writes, which would otherwise wake it in a loop) is left out.
 *
 * The patterns are written once, in the event-filtering syntax of Lambda's event source mappings
 * (the stack's `stream` event uses them as they are), and `matchesStreamPatterns` applies that
 * same syntax (exact values and prefixes) to a record, for the local stream reader (scripts/local/).
 */
export const PENDING_CHANGES_PARTITION = 'PENDINGCHANGES';

/** Rows of any org whose change can make a served policy or pattern find, or drop, a node. */
export const AGBOT_INPUTS_ANY_ORG = [
  'org',
  'policy',
  'pattern',
  'node',
  'nodepolicies',
  'service',
  'servicepolicies',
  'secret',
  // A rollout plan or an operator's action on it (docs/rollouts.md); not the agbots' own status rows.
  'rollout',
];

/** The agbot's own rows it acts on: its mailbox and what it serves. */
export const AGBOT_OWN_INPUTS = ['agbotmsgs', 'agbotbusinesspols', 'agbotpatterns'];

/** A value a field may hold: exactly this string, or any string that starts with `prefix`. */
type Expected = string | { prefix: string };
type Pattern = { [field: string]: Expected[] | Pattern };

const newChangeRow = (image: Pattern): Pattern => ({
  eventName: ['INSERT'],
  dynamodb: { Keys: { pk: { S: [PENDING_CHANGES_PARTITION] } }, NewImage: image },
});

/** The stream's filter patterns for `agbot` (any one matching is enough). */
export function agbotStreamPatterns(agbot: { org: string; id: string }): Pattern[] {
  return [
    newChangeRow({ resource: { S: AGBOT_INPUTS_ANY_ORG } }),
    newChangeRow({ resource: { S: ['nodeagreements'] }, operation: { S: ['deleted'] } }),
    newChangeRow({ resource: { S: AGBOT_OWN_INPUTS }, org: { S: [agbot.org] }, id: { S: [agbot.id] } }),
  ];
}

const holds = (expected: Expected, value: unknown): boolean =>
  typeof expected === 'string'
    ? value === expected
    : typeof value === 'string' && value.startsWith(expected.prefix);

/** Whether `record` matches `pattern`: every field the pattern names has one of its values. */
function matches(pattern: Pattern, record: unknown): boolean {
  if (typeof record !== 'object' || record === null) return false;
  return Object.entries(pattern).every(([field, expected]) => {
    const value = (record as Record<string, unknown>)[field];
    return Array.isArray(expected) ? expected.some((one) => holds(one, value)) : matches(expected, value);
  });
}

export const matchesStreamPatterns = (patterns: Pattern[], record: unknown): boolean =>
  patterns.some((pattern) => matches(pattern, record));
