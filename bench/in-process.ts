import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { handler as getNode } from '#functions/nodes/get-node';
import { handler as putNode } from '#functions/nodes/put-node';
import { documentClient, dynamoCallCount, tableName } from '#tables/client';
import { feedKeys } from '#tables/feed/keys';
import { principalCache } from '#tables/identity/principals';
import { nodeKeys } from '#tables/keys/node';
import { invoke } from '#test/support/invoke';
import { ORG } from './seed.ts';
import { median, timed } from './stats.ts';

/**
 * The two benchmarked endpoints called in-process (as Lambda would, no HTTP), and the raw
 * DynamoDB calls each needs issued directly with the SDK, for the overhead ratio.
 */
export interface Credentials {
  user: string;
  secret: string;
}

const path = (node: string) => ({ organization: ORG, node });
const putBody = (node: string) => ({ name: node, arch: 'amd64' });

export async function handlerGet(auth: Credentials, node: string): Promise<void> {
  const result = await invoke(getNode, { auth, path: path(node) });
  if (result.status !== 200) throw new Error(`GET node → ${result.status}: ${result.text}`);
}

export async function handlerPut(auth: Credentials, node: string): Promise<void> {
  const result = await invoke(putNode, { auth, path: path(node), body: putBody(node) });
  if (result.status !== 201) throw new Error(`PUT node → ${result.status}: ${result.text}`);
}

async function rawNode(node: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: nodeKeys.record(ORG, node), ConsistentRead: true }),
  );
  return Item;
}

/** A warm GET node: the caller's identity is cached per instance (lib/auth/principal-cache.ts), so one GetItem. */
export async function rawGet(node: string): Promise<void> {
  await rawNode(node);
}

/** Raw GetItem of a node by `clients` concurrent loops for `seconds`: the rate HTTP GET node is held to. */
export async function rawGetRate(node: string, seconds: number, clients = 10): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  const loop = async () => {
    while (performance.now() < end) {
      await rawNode(node);
      done++;
    }
  };
  await Promise.all(Array.from({ length: clients }, loop));
  return done / seconds;
}

/**
 * What a warm PUT of an existing node needs (the identity is cached, as for GET): read the node,
 * then one transaction of the conditional node update (with its search-index sort key, which
 * follows `lastUpdated`) and the change row agbots read (tables/feed/changes.ts).
 */
export async function rawPut(node: string): Promise<void> {
  const current = await rawNode(node);
  const now = new Date().toISOString();
  const fields: Record<string, unknown> = {
    name: node,
    nodeType: 'device',
    registeredServices: [],
    userInput: [],
    msgEndPoint: '',
    softwareVersions: {},
    arch: 'amd64',
    heartbeatIntervals: { minInterval: 0, maxInterval: 0, intervalAdjustment: 0 },
    clusterNamespace: '',
    isNamespaceScoped: false,
    lastUpdated: now,
    lastHeartbeat: now,
    gsi2sk: nodeKeys.searchSort(now, node),
  };
  const names = Object.fromEntries(Object.keys(fields).map((name) => [`#${name}`, name]));
  const values = Object.fromEntries(Object.entries(fields).map(([name, value]) => [`:${name}`, value]));
  const change = {
    ...feedKeys.pending(`${now}#${randomUUID()}#000`),
    org: ORG,
    id: node,
    resource: 'node',
    operation: 'created/modified',
    public: false,
    lastUpdated: now,
    ttl: Math.floor(Date.now() / 1000) + 86_400,
  };
  await documentClient.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: tableName(),
            Key: nodeKeys.record(ORG, node),
            UpdateExpression: `SET ${Object.keys(fields)
              .map((name) => `#${name} = :${name}`)
              .join(', ')}`,
            ConditionExpression: 'attribute_exists(pk) AND #read = :read',
            ExpressionAttributeNames: { ...names, '#read': 'lastUpdated' },
            ExpressionAttributeValues: { ...values, ':read': current?.lastUpdated },
          },
        },
        { Put: { TableName: tableName(), Item: change } },
      ],
    }),
  );
}

/** `run` with this instance's identity cache emptied first: what a request costs when the cache misses. */
export const cold = (run: () => Promise<void>) => (): Promise<void> => {
  principalCache.forgetAll();
  return run();
};

/** DynamoDB requests per call of `run`, averaged over `times` warm calls. */
export async function callsPerRequest(run: () => Promise<void>, times = 20): Promise<number> {
  await run();
  const before = dynamoCallCount();
  for (let i = 0; i < times; i++) await run();
  return (dynamoCallCount() - before) / times;
}

export interface Comparison {
  handlerMs: number;
  rawMs: number;
  ratio: number;
}

/** Median latency of the handler and of its raw calls, interleaved so both see the same conditions. */
export async function compare(handlerRun: () => Promise<void>, rawRun: () => Promise<void>, times = 300) {
  for (let i = 0; i < 20; i++) {
    await handlerRun();
    await rawRun();
  }
  const handlerTimes: number[] = [];
  const rawTimes: number[] = [];
  for (let i = 0; i < times; i++) {
    handlerTimes.push(await timed(handlerRun));
    rawTimes.push(await timed(rawRun));
  }
  const handlerMs = median(handlerTimes);
  const rawMs = median(rawTimes);
  return { handlerMs, rawMs, ratio: handlerMs / rawMs } satisfies Comparison;
}
