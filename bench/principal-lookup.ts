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

const ROUNDS = 5;

/** Done and elapsed ms of `work` run by `concurrency` clients for `ms`. */
async function burst(work: () => Promise<unknown>, ms: number): Promise<[number, number]> {
  let done = 0;
  const started = Date.now();
  const end = started + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        await work();
        done += 1;
      }
    }),
  );
  return [done, Date.now() - started];
}

/**
 * Requests per second of each of `works`, after a warm-up: `seconds` each in all, in ROUNDS
 * interleaved slices, so a machine whose load drifts during the run slows every way alike.
 */
async function ratesPerSecond(works: (() => Promise<unknown>)[]): Promise<number[]> {
  for (const work of works) for (let i = 0; i < 200; i++) await work();
  const totals = works.map(() => [0, 0]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, work] of works.entries()) {
      const [done, ms] = await burst(work, (seconds * 1000) / ROUNDS);
      const total = totals[i] as number[];
      total[0] = (total[0] ?? 0) + done;
      total[1] = (total[1] ?? 0) + ms;
    }
  }
  return totals.map(([done = 0, ms = 1]) => done / (ms / 1000));
}

const dynamo = await startBenchDynamo();
try {
  const { BatchGetCommand, GetCommand, PutCommand, QueryCommand } = await import('@aws-sdk/lib-dynamodb');
  const { documentClient, dynamoClient, tableName } = await import('../tables/client.ts');
  const { createTableIfMissing } = await import('../tables/create-table.ts');
  const { identityKeys } = await import('../tables/identity/keys.ts');
  const { nodeKeys } = await import('../tables/keys/node.ts');
  const { agbotKeys } = await import('../tables/keys/agbot.ts');
  const { userKeys } = await import('../tables/keys/user.ts');
  const { createNode, createOrg, createUser } = await import('../test/support/identities.ts');
  const table = tableName();
  await createTableIfMissing(table);
  await createOrg('acme');
  await createUser('acme', 'alice');
  await createNode('acme', 'n1', 'acme/alice');
  const principal = await documentClient.send(
    new GetCommand({ TableName: table, Key: identityKeys.principal('acme', 'n1'), ConsistentRead: true }),
  );
  // The alternative layout: one item per kind in the `org/id` partition (here the node's only).
  const perKindPartition = 'PRINCIPALKINDS#acme/n1';
  await documentClient.send(
    new PutCommand({ TableName: table, Item: { pk: perKindPartition, sk: 'NODE', ...principal.Item?.node } }),
  );
  const candidates = [
    nodeKeys.record('acme', 'n1'),
    agbotKeys.record('acme', 'n1'),
    userKeys.record('acme', 'n1'),
  ];
  const get = (Key: { pk: string; sk: string }) =>
    documentClient.send(new GetCommand({ TableName: table, Key, ConsistentRead: true }));
  const ways: [string, () => Promise<unknown>][] = [
    [
      'BatchGetItem of the 3 records (before)',
      () => documentClient.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: candidates } } })),
    ],
    ['GetItem of the principal item (now, consistent)', () => get(identityKeys.principal('acme', 'n1'))],
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
  const { loadavg } = await import('node:os');
  console.log(
    `load average before: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(', ')}`,
  );
  console.log(`| Lookup (${concurrency} concurrent clients, ${seconds} s each) | Lookups/s | Mean latency |`);
  console.log('|---|---:|---:|');
  const lookupRates = await ratesPerSecond(ways.map(([, lookup]) => lookup));
  for (const [i, [name]] of ways.entries()) {
    const rate = lookupRates[i] ?? 0;
    console.log(`| ${name} | ${Math.round(rate)} | ${((concurrency / rate) * 1000).toFixed(2)} ms |`);
  }

  const { handler: getNode } = await import('../functions/nodes/get-node.ts');
  const { invoke } = await import('../test/support/invoke.ts');
  const { principalCache } = await import('../tables/identity/principals.ts');
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
  const reads = [
    ['warm: identity remembered (authCacheSeconds)', false],
    ['cold: identity cache emptied before each request', true],
  ] as const;
  const sent: string[][] = [];
  for (const [, cold] of reads) {
    await read(false);
    sent.push(await commandsOf(cold));
  }
  const readRates = await ratesPerSecond(
    reads.map(
      ([, cold]) =>
        () =>
          read(cold),
    ),
  );
  for (const [i, [name]] of reads.entries()) {
    const commands = sent[i] ?? [];
    console.log(
      `| ${name} | ${Math.round(readRates[i] ?? 0)} | ${commands.length}: ${commands.join(', ')} |`,
    );
  }
  console.log(
    `load average after: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(', ')}`,
  );
} finally {
  await dynamo.stop();
}
