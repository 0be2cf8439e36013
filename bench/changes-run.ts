import { BatchWriteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { handler as postChanges } from '#functions/changes/post-changes';
import { bootstrap } from '#tables/bootstrap';
import { documentClient, tableName } from '#tables/client';
import { createTableIfMissing } from '#tables/create-table';
import { CHANGE_TTL_SECONDS, maxChangeId, recordChanges, sequencePendingChanges } from '#tables/feed/changes';
import { feedKeys } from '#tables/feed/keys';
import { nodeKeys } from '#tables/keys/node';
import { createNode, createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { type Comparison, callsPerRequest, compare } from './in-process.ts';
import { percentile, round } from './stats.ts';

/**
 * `POST /changes` (issue 10's benchmark): DynamoDB calls per request and in-process handler vs
 * the raw calls it needs, with 10 and with 10,000 change rows in the org's feed. A node asks for
 * what changed since the newest few rows, as an agent polling every few seconds does.
 */
const ORG = 'bench-feed';
const BASE = 10;
const BIG = 10_000;

interface ChangesFigures {
  rows: { changeRows: number; calls: number; comparison: Comparison }[];
  contended: ContendedFigures;
}

interface ContendedFigures {
  readers: number;
  backlog: number;
  writes: number;
  calls: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  failed: number;
}

const CONTENDING_READERS = 20;
const CONTENDED_BACKLOG = 600;
const CONTENDED_WRITES = 100;

/**
 * Many readers numbering at once (a fleet's agents polling after a burst of writes): 600 pending
 * rows, then 20 readers call sequencePendingChanges in a loop while one writer adds 100 more.
 */
async function contendedReads(): Promise<ContendedFigures> {
  const change = (id: string) => ({ org: ORG, id, resource: 'node', operation: 'modified' as const });
  for (let i = 0; i < CONTENDED_BACKLOG; i += 30)
    await recordChanges(Array.from({ length: 30 }, (_, k) => change(`backlog${i + k}`)));
  let writing = true;
  const durations: number[] = [];
  let failed = 0;
  const writer = async () => {
    for (let i = 0; i < CONTENDED_WRITES; i++) await recordChanges([change(`w${i}`)]);
    writing = false;
  };
  const reader = async () => {
    while (writing) {
      const started = performance.now();
      await sequencePendingChanges().catch(() => failed++);
      durations.push(performance.now() - started);
    }
  };
  await Promise.all([writer(), ...Array.from({ length: CONTENDING_READERS }, reader)]);
  return {
    readers: CONTENDING_READERS,
    backlog: CONTENDED_BACKLOG,
    writes: CONTENDED_WRITES,
    calls: durations.length,
    p50Ms: percentile(durations, 50),
    p95Ms: percentile(durations, 95),
    maxMs: Math.max(...durations),
    failed,
  };
}

/** Numbered rows written directly (25 per BatchWriteItem) after the sequence, then the sequence moved. */
async function grow(total: number): Promise<void> {
  const first = (await maxChangeId()) + 1;
  const now = new Date();
  const items = Array.from({ length: total - BASE }, (_, i) => ({
    ...feedKeys.ofOrg(ORG, first + i),
    changeId: first + i,
    org: ORG,
    id: `n${i % 100}`,
    resource: 'node',
    operation: 'modified',
    public: false,
    lastUpdated: now.toISOString(),
    ttl: Math.floor(now.getTime() / 1000) + CHANGE_TTL_SECONDS,
  }));
  for (let i = 0; i < items.length; i += 25) {
    let pending = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    while (pending.length > 0) {
      const result = await documentClient.send(
        new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }),
      );
      pending = (result.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
    }
  }
  // The sequence and its copy at the head of the pending rows, as a numbering transaction moves both.
  for (const Key of [feedKeys.sequence(), feedKeys.head()])
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key,
        UpdateExpression: 'SET seq = :seq',
        ExpressionAttributeValues: { ':seq': first + items.length - 1 },
      }),
    );
}

export async function runChangesBench(step: (text: string) => void = console.log): Promise<ChangesFigures> {
  await createTableIfMissing(tableName());
  await bootstrap();
  await createOrg(ORG);
  await createUser(ORG, 'alice');
  const node = await createNode(ORG, 'poller', `${ORG}/alice`);
  await recordChanges(
    Array.from({ length: BASE }, (_, i) => ({
      org: ORG,
      id: `n${i}`,
      resource: 'node',
      operation: 'created' as const,
    })),
  );
  const rows: ChangesFigures['rows'] = [];
  for (const changeRows of [BASE, BIG]) {
    if (changeRows > BASE) {
      step(`growing the feed to ${changeRows.toLocaleString('en')} rows (BatchWriteItem)`);
      await grow(changeRows);
    }
    const from = (await maxChangeId()) - 4;
    const poll = async () => {
      const result = await invoke(postChanges, {
        auth: node,
        path: { organization: ORG },
        body: { changeId: from, maxRecords: 100 },
      });
      if (result.status !== 201) throw new Error(`POST /changes → ${result.status}: ${result.text}`);
    };
    // What the handler needs: the heartbeat, the pending rows' head, then the org's and the public feed.
    const query = (pk: string, sk?: string) =>
      documentClient.send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: sk ? 'pk = :pk AND sk >= :sk' : 'pk = :pk',
          ExpressionAttributeValues: sk ? { ':pk': pk, ':sk': sk } : { ':pk': pk },
          ConsistentRead: true,
          Limit: 125,
        }),
      );
    const raw = async () => {
      await documentClient.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: nodeKeys.record(ORG, 'poller'),
          UpdateExpression: 'SET lastHeartbeat = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':at': new Date().toISOString() },
        }),
      );
      await query(feedKeys.pendingPartition);
      const sk = feedKeys.sortKeyFrom(from);
      await Promise.all([query(feedKeys.orgPartition(ORG), sk), query(feedKeys.publicPartition, sk)]);
      // Nothing visible to this node: the answer carries the newest id instead.
      await documentClient.send(
        new GetCommand({ TableName: tableName(), Key: feedKeys.sequence(), ConsistentRead: true }),
      );
    };
    const calls = await callsPerRequest(poll);
    const comparison = await compare(poll, raw);
    rows.push({ changeRows, calls, comparison });
    step(
      `POST /changes with ${changeRows} rows: ${calls} DynamoDB calls/request, handler ${round(comparison.handlerMs)} ms vs raw ${round(comparison.rawMs)} ms (×${round(comparison.ratio)})`,
    );
  }
  step(
    `${CONTENDING_READERS} readers numbering a backlog of ${CONTENDED_BACKLOG} while ${CONTENDED_WRITES} more are written`,
  );
  const contended = await contendedReads();
  step(
    `contended: ${contended.calls} calls, p50 ${round(contended.p50Ms)} ms, p95 ${round(contended.p95Ms)} ms, max ${round(contended.maxMs)} ms, ${contended.failed} failed`,
  );
  return { rows, contended };
}

/** The section docs/benchmarks.md gets. */
export function changesMarkdown(figures: ChangesFigures): string {
  return [
    '## POST /changes (issue 10)',
    '',
    'In-process `POST /v1/orgs/{org}/changes` by a node (warm: identity cached) asking for the newest 5',
    'rows (none about itself, so the answer is empty, as most polls are), against the raw calls it needs',
    "(heartbeat UpdateItem, the pending rows' head, the org's and the public feed Queried in parallel, the",
    'sequence item), with 10 and with 10,000 rows in the feed (`npx tsx bench/changes.ts`).',
    '',
    '| Change rows in the feed | DynamoDB calls / request | Handler median (ms) | Raw calls median (ms) | Ratio |',
    '| ---: | ---: | ---: | ---: | ---: |',
    ...figures.rows.map(
      (r) =>
        `| ${r.changeRows.toLocaleString('en')} | ${r.calls} | ${round(r.comparison.handlerMs)} | ${round(r.comparison.rawMs)} | ${round(r.comparison.ratio)} |`,
    ),
    '',
    `Numbering under contention: ${figures.contended.readers} readers call \`sequencePendingChanges\` in a loop`,
    `over a backlog of ${figures.contended.backlog} pending rows while one writer adds ${figures.contended.writes} more`,
    '(a call that finds another reader numbering waits for it; it fails after 25 s).',
    '',
    '| Calls | p50 (ms) | p95 (ms) | Max (ms) | Failed |',
    '| ---: | ---: | ---: | ---: | ---: |',
    `| ${figures.contended.calls} | ${round(figures.contended.p50Ms)} | ${round(figures.contended.p95Ms)} | ${round(figures.contended.maxMs)} | ${figures.contended.failed} |`,
    '',
  ].join('\n');
}
