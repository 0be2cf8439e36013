/**
 * How much one authentication lookup costs against DynamoDB Local, four ways (issue 15, item 1):
 * the BatchGetItem of the three candidate keys (node, agbot, user), one GetItem of a known key
 * (what a principal item keyed by `org/id`, or a node refreshed by its remembered kind, costs),
 * three GetItems in parallel, and three in a row (the priority order, worst case).
 * Run: `npx tsx bench/principal-lookup.ts [seconds per way, default 5] [concurrency, default 10]`.
 */
import { startBenchDynamo } from './env.ts';

const seconds = Number(process.argv[2] ?? 5);
const concurrency = Number(process.argv[3] ?? 10);

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
    for (let i = 0; i < 200; i++) await lookup(); // warm-up
    let done = 0;
    const end = Date.now() + seconds * 1000;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (Date.now() < end) {
          await lookup();
          done += 1;
        }
      }),
    );
    const elapsed = (Date.now() - started) / 1000;
    const rate = done / elapsed;
    console.log(`| ${name} | ${Math.round(rate)} | ${((concurrency / rate) * 1000).toFixed(2)} ms |`);
  }
} finally {
  await dynamo.stop();
}
