import * as z from 'zod';
import { LAST_SEEN_BUCKETS, NODE_STATES } from '#lib/fleet/node-state';
import { idSegment, MAX_ID_LENGTH, orgPath } from '#lib/ids';
import { pageLimit } from '#lib/page-limit';

/**
 * Schemas of the console's routes (docs/console.md#routes), our extension. The console's pages
 * import the types inferred here (console/src/api.ts), so the API's shapes are written once.
 */
export const consoleOrgPath = orgPath;

const bool = z
  .string()
  .refine((value) => /^(true|false)$/i.test(value), { message: "must be 'true' or 'false'" })
  .transform((value) => value.toLowerCase() === 'true');

const exact = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_ID_LENGTH, `must be at most ${MAX_ID_LENGTH} characters`);

/** GET /v1/console/orgs/{organization}/nodes: a page of node summaries, filtered on the server. */
export const nodeSummariesQuery = z.strictObject({
  limit: pageLimit(500).optional(),
  /** The previous page's `next`. */
  after: idSegment.optional(),
  /** Node ids that start with this. */
  prefix: z.string().max(MAX_ID_LENGTH, `must be at most ${MAX_ID_LENGTH} characters`).optional(),
  state: z.enum(NODE_STATES, { message: `must be one of ${NODE_STATES.join(', ')}` }).optional(),
  arch: exact.optional(),
  /** A pattern (`org/name`), or `-` for nodes without one (policy nodes). */
  pattern: exact.optional(),
  /** An owner, `org/user` (org admins and root; a plain user sees only their own nodes anyway). */
  owner: exact.optional(),
  /** The agent's version (softwareVersions.horizon), or `-` for nodes that reported none. */
  version: exact.optional(),
  errors: bool.optional(),
});
export type NodeSummariesQuery = z.infer<typeof nodeSummariesQuery>;

/** GET /v1/console/orgs/{organization}/fleet. */
export const fleetSummaryQuery = z.strictObject({
  /** Seconds: an answer computed at most this long ago will do (default 30, at most a day). */
  maxAge: z
    .string()
    .regex(/^\d{1,5}$/, 'must be a whole number of seconds from 0 to 86400')
    .transform(Number)
    .refine((n) => n <= 86_400, 'must be a whole number of seconds from 0 to 86400')
    .optional(),
});

/** GET /v1/console/orgs/{organization}/nodes/{node}/changes. */
export const consoleNodePath = orgPath.extend({ node: idSegment });
export const nodeChangesQuery = z.strictObject({
  limit: pageLimit(100).optional(),
});

export const nodeChangesResponse = z.object({
  node: z.string().describe('`org/id`'),
  changes: z
    .array(
      z.object({
        changeId: z.number().int(),
        resource: z.string().describe("upstream's resource name: node, nodepolicies, nodeagreements..."),
        operation: z.string(),
        lastUpdated: z.string(),
      }),
    )
    .describe('newest first; the feed keeps rows 4 hours'),
});
export type NodeChanges = z.infer<typeof nodeChangesResponse>;

export const nodeSummary = z.object({
  id: z.string().describe('`org/id`'),
  name: z.string(),
  owner: z.string(),
  arch: z.string(),
  nodeType: z.string(),
  pattern: z.string(),
  agentVersion: z.string(),
  state: z.enum(NODE_STATES),
  lastHeartbeat: z.string().optional(),
  connected: z.boolean(),
  heartbeatSeconds: z.number().int().describe('the maxInterval the state is computed against'),
  agreements: z.number().int(),
  agreementStates: z.record(z.string(), z.number().int()),
  errors: z.number().int(),
  firstError: z.string().optional().describe("the first surfaced error's message"),
});
export type NodeSummary = z.infer<typeof nodeSummary>;

export const nodeSummariesResponse = z.object({
  nodes: z.array(nodeSummary),
  next: z.string().optional().describe('pass as `after` for the next page; absent on the last'),
  scanned: z.number().int().describe('node records read for this page'),
  at: z.string(),
});
export type NodeSummariesResponse = z.infer<typeof nodeSummariesResponse>;

const counts = z.record(z.string(), z.number().int());

export const fleetSummaryResponse = z.object({
  org: z.string(),
  at: z.string(),
  total: z.number().int(),
  byState: counts,
  byArch: counts,
  byVersion: counts,
  byPattern: counts.describe('pattern, or `-` for policy nodes'),
  byType: counts,
  lastSeen: z.array(
    z.object({ label: z.enum(LAST_SEEN_BUCKETS.map((b) => b.label)), count: z.number().int() }),
  ),
  withErrors: z.number().int(),
  errorNodes: z
    .array(z.object({ id: z.string(), name: z.string(), errors: z.number().int(), first: z.string() }))
    .describe('the first 20 nodes with errors, in id order'),
  agreements: z.object({ total: z.number().int(), byState: counts }),
  truncated: z.boolean().describe('true when the org had more nodes than one summary reads'),
});
export type FleetSummary = z.infer<typeof fleetSummaryResponse>;

export const whoAmIResponse = z.object({
  id: z.string().describe('`org/id`'),
  org: z.string(),
  kind: z.enum(['root', 'user', 'node', 'agbot']),
  role: z.enum(['SuperUser', 'HubAdmin', 'AdminUser', 'User', 'Node', 'Agbot']),
  admin: z.boolean(),
  hubAdmin: z.boolean(),
  can: z.object({
    readNodes: z.boolean().describe("nodes of the org (a plain user's own)"),
    writeAllNodes: z.boolean().describe('delete or change any node of the org'),
    controlRollouts: z.boolean().describe('pause, resume, promote, abort any rollout of the org'),
    writeSecrets: z.boolean().describe("set and delete the org's secrets"),
    manageUsers: z.boolean(),
    listOrgs: z.boolean(),
  }),
});
export type WhoAmI = z.infer<typeof whoAmIResponse>;

export const assetPath = z.object({
  asset: z
    .string()
    .max(100, 'must be at most 100 characters')
    .regex(/^[\w.-]+$/, 'must be a file name'),
});
