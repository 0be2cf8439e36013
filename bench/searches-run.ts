import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { PutItemCommand } from 'dynamodb-toolbox';
import { handler as postChanges } from '#functions/changes/post-changes';
import { handler as postPolicy } from '#functions/deployment-policies/post-policy';
import { handler as searchPolicy } from '#functions/deployment-policies/search-policy';
import { hashSecret } from '#lib/auth/secrets';
import { bootstrap } from '#tables/bootstrap';
import { documentClient, dynamoCallCount, tableName } from '#tables/client';
import { createTableIfMissing } from '#tables/create-table';
import { identityKeys } from '#tables/identity/keys';
import { nodeEntry } from '#tables/identity/records';
import { NodeEntity } from '#tables/node/entity';
import { searchNodes } from '#tables/node/search';
import { seedService } from '#test/support/catalog';
import { createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { median, round, timed } from './stats.ts';

/**
 * Issue 11's benchmarks, in process against DynamoDB Local: a deployment-policy search over an org
 * with 100 and with 10,000 configured nodes (wall time, DynamoDB calls, index items read per node
 * returned), a page of 100 of it, and the `POST /changes` heartbeat of 1,000 nodes, 10 at a time.
 */
const SIZES = [100, 10_000];
const HEARTBEAT_NODES = 1_000;
const CLIENTS = 10;

interface SearchFigures {
  searches: {
    nodes: number;
    full: { ms: number; calls: number; returned: number; itemsPerNode: number };
    page: { ms: number; calls: number; returned: number };
  }[];
  heartbeat: { nodes: number; seconds: number; perSecond: number; callsPerRequest: number };
}

const token = 'bench-search-token';

/** Registered, heartbeating policy nodes `s-<from>`…, with their principal items (BatchWrite). */
async function addNodes(org: string, from: number, to: number): Promise<void> {
  const tokenHash = await hashSecret(token);
  const owner = `${org}/admin`;
  const now = new Date().toISOString();
  const items: Record<string, unknown>[] = [];
  for (let i = from; i < to; i++) {
    const id = `s-${i}`;
    const { Item } = NodeEntity.build(PutItemCommand)
      .item({
        org,
        id,
        owner,
        name: id,
        tokenHash,
        publicKey: `key-${i}`,
        arch: 'amd64',
        lastHeartbeat: now,
        lastUpdated: now,
      })
      .params();
    if (Item)
      items.push(Item, {
        ...identityKeys.principal(org, id),
        node: nodeEntry({ tokenHash, owner, publicKey: `key-${i}` }),
      });
  }
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      let pending = (batches[next++] ?? []).map((Item) => ({ PutRequest: { Item } }));
      while (pending.length > 0) {
        const result = await documentClient.send(
          new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }),
        );
        pending = (result.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

async function measureSearch(org: string, body: Record<string, unknown>) {
  const run = () => invoke(searchPolicy, { auth: ROOT, path: { organization: org, policy: 'pol' }, body });
  await run();
  const before = dynamoCallCount();
  const answer = await run();
  const calls = dynamoCallCount() - before;
  const times: number[] = [];
  for (let i = 0; i < 5; i++) times.push(await timed(run));
  return { ms: round(median(times), 1), calls, returned: answer.body.nodes.length as number };
}

export async function runSearchBench(step: (text: string) => void = console.log): Promise<SearchFigures> {
  await createTableIfMissing(tableName());
  await bootstrap();
  const org = 'bench-search';
  await createOrg(org);
  const admin = await createUser(org, 'admin', { admin: true });
  await seedService(org, { url: 'web', version: '1.0.0', arch: 'amd64' });
  const policy = await invoke(postPolicy, {
    auth: admin,
    path: { organization: org, policy: 'pol' },
    body: {
      label: 'p',
      service: { name: 'web', org, arch: 'amd64', serviceVersions: [{ version: '1.0.0' }] },
    },
  });
  if (policy.status !== 201) throw new Error(`policy: ${policy.text}`);
  const searches: SearchFigures['searches'] = [];
  let seeded = 0;
  for (const size of SIZES) {
    step(`search: ${size.toLocaleString('en')} configured nodes`);
    await addNodes(org, seeded, size);
    seeded = size;
    const full = await measureSearch(org, {});
    const index = await searchNodes(org, '', { keep: () => true });
    const page = await measureSearch(org, { numEntries: 100 });
    searches.push({
      nodes: size,
      full: { ...full, itemsPerNode: round(index.itemsRead / full.returned, 2) },
      page,
    });
  }
  step(`heartbeat: POST /changes of ${HEARTBEAT_NODES} nodes, ${CLIENTS} at a time`);
  const before = dynamoCallCount();
  let next = 0;
  const started = performance.now();
  const client = async () => {
    while (next < HEARTBEAT_NODES) {
      const id = `s-${next++}`;
      const answer = await invoke(postChanges, {
        auth: { user: `${org}/${id}`, secret: token },
        path: { organization: org },
        body: { changeId: 0, maxRecords: 100 },
      });
      if (answer.status !== 201) throw new Error(`POST /changes: ${answer.text}`);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  const seconds = (performance.now() - started) / 1000;
  const heartbeat = {
    nodes: HEARTBEAT_NODES,
    seconds: round(seconds, 1),
    perSecond: round(HEARTBEAT_NODES / seconds, 0),
    callsPerRequest: round((dynamoCallCount() - before) / HEARTBEAT_NODES, 2),
  };
  return { searches, heartbeat };
}

export function searchesMarkdown(figures: SearchFigures): string {
  const rows = figures.searches.map(
    (s) =>
      `| ${s.nodes.toLocaleString('en')} | ${s.full.returned.toLocaleString('en')} | ${s.full.ms} | ${s.full.calls} | ${s.full.itemsPerNode} | ${s.page.returned} | ${s.page.ms} | ${s.page.calls} |`,
  );
  const h = figures.heartbeat;
  return [
    '## Node searches and heartbeats (issue 11)',
    '',
    'In process against DynamoDB Local (`npx tsx bench/searches.ts`). A deployment-policy search as root over an org of',
    'configured policy nodes (all candidates): the whole result, then one page of `numEntries` 100. Calls include',
    "authentication (cached) and the policy's GetItem; the nodes come from gsi2 Queries of 1 MB pages. Items read per node",
    'returned counts index items (a few hundred bytes each, not the node records).',
    '',
    '| Nodes | Returned | Wall ms | DynamoDB calls | Index items read per node | Page of 100: returned | ms | calls |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    `\`POST /changes\` as the heartbeat of ${h.nodes.toLocaleString('en')} nodes, ${CLIENTS} concurrent clients, each node once with`,
    `its identity not cached: ${h.seconds} s, ${h.perSecond} heartbeats/s, ${h.callsPerRequest} DynamoDB calls per request`,
    '(principal GetItem, the heartbeat UpdateItem, the feed reads).',
    '',
  ].join('\n');
}
