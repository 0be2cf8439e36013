/**
 * How much one authentication lookup costs against DynamoDB Local, five ways (issue 15, item 1):
 * the BatchGetItem of the three candidate keys (node, agbot, user) used before; one GetItem of the
 * principal item (`PRINCIPAL#<org>/<id>`, what authentication does now); a Query of one partition
 * holding an item per kind (the layout considered instead); three GetItems in parallel; three in a
 * row (the priority order, worst case). Then the in-process GET node handler with the caller's
 * identity remembered (warm) and with the cache emptied before each request (cold), with the
 * DynamoDB calls of each by command.
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
  const { BatchGetCommand, GetCommand, PutCommand, QueryCommand } = await import('@aws-sdk/lib-dynamodb');
  const { documentClient, dynamoClient, tableName } = await import('../tables/client.ts');
  const { createTableIfMissing } = await import('../tables/create-table.ts');
  const { keys } = await import('../tables/keys.ts');
  const { createNode, createOrg, createUser } = await import('../test/support/identities.ts');
  const table = tableName();
  await createTableIfMissing(table);
  await createOrg('acme');
  await createUser('acme', 'alice');
  await createNode('acme', 'n1', 'acme/alice');
  const principal = await documentClient.send(
    new GetCommand({ TableName: table, Key: keys.principal('acme', 'n1'), ConsistentRead: true }),
  );
  // The alternative layout: one item per kind in the `org/id` partition (here the node's only).
  const perKindPartition = 'PRINCIPALKINDS#acme/n1';
  await documentClient.send(
    new PutCommand({ TableName: table, Item: { pk: perKindPartition, sk: 'NODE', ...principal.Item?.node } }),
  );
  const candidates = [keys.node('acme', 'n1'), keys.agbot('acme', 'n1'), keys.user('acme', 'n1')];
  const get = (Key: { pk: string; sk: string }) =>
    documentClient.send(new GetCommand({ TableName: table, Key, ConsistentRead: true }));
  const ways: [string, () => Promise<unknown>][] = [
    [
      'BatchGetItem of the 3 records (before)',
      () => documentClient.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: candidates } } })),
    ],
    ['GetItem of the principal item (now, consistent)', () => get(keys.principal('acme', 'n1'))],
    [
      'Query of a partition with an item per kind (alternative)',
      () =>
        documentClient.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': perKindPartition },
            ConsistentRead: true,
          }),
        ),
    ],
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
  const { principalCache } = await import('../tables/principals.ts');
  const read = async (cold: boolean) => {
    if (cold) principalCache.forgetAll();
    const result = await invoke(getNode, {
      auth: { user: 'acme/alice', secret: 'alice-pw' },
      path: { organization: 'acme', node: 'n1' },
    });
    if (result.status !== 200) throw new Error(`GET node answered ${result.status}`);
  };
  /** The commands one request sends, by name. */
  const commandsOf = async (cold: boolean): Promise<string[]> => {
    const sent: string[] = [];
    dynamoClient.middlewareStack.add(
      (next, context) => (args) => {
        sent.push(String(context.commandName).replace(/Command$/, ''));
        return next(args);
      },
      { step: 'initialize', name: 'benchCommands' },
    );
    try {
      await read(cold);
    } finally {
      dynamoClient.middlewareStack.remove('benchCommands');
    }
    return sent;
  };
  console.log('');
  console.log(`| In-process GET node (${concurrency} concurrent clients) | Requests/s | DynamoDB calls |`);
  console.log('|---|---:|---|');
  for (const [name, cold] of [
    ['warm: identity remembered (authCacheSeconds)', false],
    ['cold: identity cache emptied before each request', true],
  ] as const) {
    await read(false);
    const sent = await commandsOf(cold);
    const rate = await ratePerSecond(() => read(cold));
    console.log(`| ${name} | ${Math.round(rate)} | ${sent.length}: ${sent.join(', ')} |`);
  }
} finally {
  await dynamo.stop();
}
