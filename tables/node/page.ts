import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { idFits } from '#lib/ids';
import { documentClient, tableName } from '../client.ts';
import { nodeKeys } from '../keys/node.ts';
import { isHeartbeatItem, laterHeartbeat, livenessHeartbeat } from './liveness.ts';

/**
 * Paged reads of an org's nodes, compact: what a list of nodes shows (id, name, owner, arch, pattern,
 * agent version, heartbeat and its intervals, agreements), not the whole record. Written for the
 * console's node summary (GET /v1/console/orgs/{org}/nodes) and meant to be shared: GET
 * /v1/orgs/{org}/nodes can page with `pageOrgNodes` when it learns to (tables/README.md, access
 * patterns). One Query of the org's gsi1 partition (`ORG#<org>#NODES`, sorted by node id) per page;
 * the cursor is the last node id read, so a page resumes right after it.
 */

/** The node attributes a page carries (a ProjectionExpression: less to move, the same read units). */
export interface NodeSummaryItem {
  org: string;
  id: string;
  name: string;
  owner: string;
  arch: string;
  pattern: string;
  nodeType: string;
  /** softwareVersions.horizon: the agent's version ("" when the node has not said). */
  agentVersion: string;
  registered: boolean;
  lastHeartbeat: string | undefined;
  /** The node's maxInterval in seconds (0: the node set none). */
  maxInterval: number;
  /** Agreement id → its state (the node's `agreementServices`). */
  agreementStates: string[];
}

export interface NodePageOptions {
  /** At most this many nodes (DynamoDB's Limit, before the filters below). */
  limit: number;
  /** Resume after this node id (the previous page's `next`). */
  after?: string | undefined;
  /** Only ids that start with this (a key condition: no read units spent on the others). */
  idPrefix?: string | undefined;
  /** Exact matches, as a FilterExpression (read units are spent on the items filtered out). */
  owner?: string | undefined;
  arch?: string | undefined;
  pattern?: string | undefined;
}

export interface NodePage {
  nodes: NodeSummaryItem[];
  /** The id to pass as `after` for the next page; undefined at the end of the org's nodes. */
  next: string | undefined;
}

const PROJECTION = [
  'org',
  'id',
  '#name',
  '#owner',
  'arch',
  '#pattern',
  'nodeType',
  'softwareVersions',
  'lastHeartbeat',
  'heartbeatIntervals',
  'publicKey',
  'agreementServices',
].join(', ');

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function summaryOf(item: Record<string, unknown>): NodeSummaryItem {
  const versions = (item.softwareVersions ?? {}) as Record<string, unknown>;
  const intervals = (item.heartbeatIntervals ?? {}) as Record<string, unknown>;
  const agreements = (item.agreementServices ?? {}) as Record<string, { state?: unknown }>;
  return {
    org: text(item.org),
    id: text(item.id),
    name: text(item.name),
    owner: text(item.owner),
    arch: text(item.arch),
    pattern: text(item.pattern),
    nodeType: text(item.nodeType) || 'device',
    agentVersion: text(versions.horizon),
    registered: Boolean(item.pattern) || Boolean(item.publicKey),
    lastHeartbeat: text(item.lastHeartbeat) || undefined,
    maxInterval: typeof intervals.maxInterval === 'number' ? intervals.maxInterval : 0,
    agreementStates: Object.values(agreements).map((agreement) => text(agreement?.state)),
  };
}

/** One page of the org's nodes in id order: one Query (gsi1, eventually consistent). */
export async function pageOrgNodes(org: string, options: NodePageOptions): Promise<NodePage> {
  const prefix = options.idPrefix ?? '';
  // DynamoDB refuses a key longer than an id may be (a 500); no id starts with it anyway.
  if (!idFits(prefix) || (options.after !== undefined && !idFits(options.after))) {
    return { nodes: [], next: undefined };
  }
  const names: Record<string, string> = { '#name': 'name', '#owner': 'owner', '#pattern': 'pattern' };
  const values: Record<string, unknown> = { ':partition': nodeKeys.orgIndex(org) };
  let keyCondition = 'gsi1pk = :partition';
  if (prefix) {
    values[':prefix'] = prefix;
    keyCondition += ' AND begins_with(gsi1sk, :prefix)';
  }
  const filters: string[] = [];
  for (const [attribute, value] of [
    ['owner', options.owner],
    ['arch', options.arch],
    ['pattern', options.pattern],
  ] as const) {
    if (value === undefined) continue;
    names[`#f_${attribute}`] = attribute;
    values[`:f_${attribute}`] = value;
    filters.push(`#f_${attribute} = :f_${attribute}`);
  }
  const start = options.after === undefined ? undefined : nodeKeys.orgIndexAfter(org, options.after);
  const { Items = [], LastEvaluatedKey } = await documentClient.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: keyCondition,
      ...(filters.length > 0 ? { FilterExpression: filters.join(' AND ') } : {}),
      ProjectionExpression: PROJECTION,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      Limit: options.limit,
      ...(start ? { ExclusiveStartKey: start } : {}),
    }),
  );
  const next = LastEvaluatedKey ? text(LastEvaluatedKey.gsi1sk) : undefined;
  return { nodes: Items.map(summaryOf), next };
}

/** What a node's own partition adds to its summary: its liveness and its surfaced errors. */
export interface NodeExtras {
  lastHeartbeat: string | undefined;
  /** An open signal connection (docs/signals.md) that still proves life. */
  connected: boolean;
  errors: Record<string, unknown>[];
}

const BATCH_KEYS = 100;

/**
 * Each node's liveness and errors items (`NODE#HEARTBEAT`, `ERRORS`): BatchGetItem, 100 keys a
 * call (two keys per node, so 50 nodes a call), at most `parallel` calls at once, eventually
 * consistent. Unprocessed keys are asked again.
 */
export async function nodeExtras(
  nodes: { org: string; id: string; lastHeartbeat?: string | undefined }[],
  now: number,
  parallel = 4,
): Promise<Map<string, NodeExtras>> {
  const keys = nodes.flatMap((node) => [
    nodeKeys.heartbeat(node.org, node.id),
    nodeKeys.errors(node.org, node.id),
  ]);
  const items: Record<string, unknown>[] = [];
  const batches: Record<string, unknown>[][] = [];
  for (let start = 0; start < keys.length; start += BATCH_KEYS)
    batches.push(keys.slice(start, start + BATCH_KEYS));
  const run = async () => {
    for (let batch = batches.shift(); batch; batch = batches.shift()) {
      let pending = batch;
      for (let attempt = 0; pending.length > 0; attempt++) {
        const result = await documentClient.send(
          new BatchGetCommand({
            RequestItems: {
              [tableName()]: {
                Keys: pending,
                ProjectionExpression: 'pk, sk, lastHeartbeat, connectedAt, #errors',
                ExpressionAttributeNames: { '#errors': 'errors' },
              },
            },
          }),
        );
        items.push(...(result.Responses?.[tableName()] ?? []));
        pending = (result.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
        if (pending.length > 0)
          await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** Math.min(attempt, 6)));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, batches.length) }, run));
  const byPk = new Map<string, { beat?: Record<string, unknown>; errors?: Record<string, unknown> }>();
  for (const item of items) {
    const entry = byPk.get(String(item.pk)) ?? {};
    if (isHeartbeatItem(item)) entry.beat = item;
    else entry.errors = item;
    byPk.set(String(item.pk), entry);
  }
  const extras = new Map<string, NodeExtras>();
  for (const node of nodes) {
    const pk = nodeKeys.record(node.org, node.id).pk;
    const entry = byPk.get(pk) ?? {};
    const beat = livenessHeartbeat(entry.beat, now);
    const connected = beat !== undefined && beat === new Date(now).toISOString();
    const errors = Array.isArray(entry.errors?.errors)
      ? (entry.errors.errors as Record<string, unknown>[])
      : [];
    extras.set(`${node.org}/${node.id}`, {
      lastHeartbeat: laterHeartbeat(node.lastHeartbeat, beat),
      connected,
      errors,
    });
  }
  return extras;
}
