/**
 * How much one authentication lookup costs against DynamoDB Local, four ways (issue 15, item 1):
 * the BatchGetItem of the three candidate keys (node, agbot, user), one GetItem of a known key
 * (what a principal item keyed by `org/id`, or a node refreshed by its remembered kind, costs),
 * three GetItems in parallel, and three in a row (the priority order, worst case). Then the
 * in-process GET node handler, warm, with the identity remembered and with it forgotten before each
 * request (the lookup of every request before the cache), and the DynamoDB calls of each.
 * Run: `npx tsx bench/principal-lookup.ts [seconds per way, default 5] [concurrency, default 10]`.
 */
import { startBenchDynamo } from './env.ts';

const seconds = Number(process.argv[2] ?? 5);
const concurrency = Number(process.argv[3] ?? 10);

/** Requests per second of `work` run by `concurrency` clients for `seconds`, after a warm-up. */
async function ratePerSecond(work: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 200; i++) await work();
  let done = 0;
  const started = Date.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        await work();
        done += 1;
      }
    }),
  );
  return done / ((Date.now() - started) / 1000);
}

const dynamo = await startBenchDynamo();
try {
  const { BatchGetCommand, GetCommand } = await import('@aws-sdk/lib-dynamodb');
  const { documentClient, tableName } = await import('../tables/client.ts');
  const { createTableIfMissing } = await import('../tables/create-table.ts');
  const { keys } = await import('../tables/keys.ts');
  const { createNode, createOrg, createUser } = await import('../test/support/identities.ts');
  const table = tableName();
  await createTableIfMissing(table);
  await createOrg('acme');
  await createUser('acme', 'alice');
  await createNode('acme', 'n1', 'acme/alice');
  const candidates = [keys.node('acme', 'n1'), keys.agbot('acme', 'n1'), keys.user('acme', 'n1')];
  const get = (Key: { pk: string; sk: string }) =>
    documentClient.send(new GetCommand({ TableName: table, Key }));
  const ways: [string, () => Promise<unknown>][] = [
    [
      'BatchGetItem of 3 keys (today)',
      () => documentClient.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: candidates } } })),
    ],
    ['one GetItem', () => get(candidates[0] as { pk: string; sk: string })],
    ['3 GetItems in parallel', () => Promise.all(candidates.map(get))],
    [
      '3 GetItems in a row',
      async () => {
        for (const key of candidates) await get(key);
      },
    ],
  ];
  console.log(`| Lookup (${concurrency} concurrent clients, ${seconds} s each) | Lookups/s | Mean latency |`);
  console.log('|---|---:|---:|');
  for (const [name, lookup] of ways) {
    const rate = await ratePerSecond(lookup);
    console.log(`| ${name} | ${Math.round(rate)} | ${((concurrency / rate) * 1000).toFixed(2)} ms |`);
  }

  const { handler: getNode } = await import('../functions/nodes/get-node.ts');
  const { invoke } = await import('../test/support/invoke.ts');
  const { dynamoCallCount } = await import('../tables/client.ts');
  const { principalCache } = await import('../tables/principals.ts');
  const read = async (forget: boolean) => {
    if (forget) principalCache.forgetAll();
    const result = await invoke(getNode, {
      auth: { user: 'acme/alice', secret: 'alice-pw' },
      path: { organization: 'acme', node: 'n1' },
    });
    if (result.status !== 200) throw new Error(`GET node answered ${result.status}`);
  };
  console.log('');
  console.log(`| In-process GET node (${concurrency} concurrent clients) | Requests/s | DynamoDB calls |`);
  console.log('|---|---:|---:|');
  for (const [name, forget] of [
    ['identity remembered (authCacheSeconds)', false],
    ['identity looked up each time (BatchGetItem, as before)', true],
  ] as const) {
    await read(false);
    const before = dynamoCallCount();
    await read(forget);
    const calls = dynamoCallCount() - before;
    const rate = await ratePerSecond(() => read(forget));
    console.log(`| ${name} | ${Math.round(rate)} | ${calls} |`);
  }
} finally {
  await dynamo.stop();
}
