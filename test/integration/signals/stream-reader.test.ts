import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signalStreamPatterns } from '#lib/signals/stream-filter';
import { bootstrap } from '#tables/bootstrap';
import { dynamoClient, tableName } from '#tables/client';
import { createTableIfMissing } from '#tables/create-table';
import { type Change, recordChanges } from '#tables/feed/changes';
import type { StreamRecord } from '../../../scripts/local/dynamodb-streams.ts';
import {
  type EventSourceMapping,
  type StreamReader,
  startStreamReader,
} from '../../../scripts/local/stream-reader.ts';

/**
 * The local reader of an event source mapping (scripts/local/stream-reader.ts) on DynamoDB Local's
 * real stream, invoking through a Lambda invoke API served here as serverless-offline serves it
 * (a function that throws answers 200 with `X-Amz-Function-Error: Unhandled`): a failed invocation
 * is made again with the same records, a bounded number of times, then the records are dropped;
 * with bisection, a batch that fails is halved until the record that fails is alone.
 */
interface Invocation {
  functionName: string;
  ids: string[];
  sequenceNumbers: string[];
}

const invocations: Invocation[] = [];
/** Whether an invocation fails: by default none does. */
let fails: (invocation: Invocation, index: number) => boolean = () => false;
let lambda: Server;
let lambdaUrl: string;
const readers: StreamReader[] = [];
const logged: string[] = [];

function startLambdaApi(): Promise<string> {
  lambda = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const functionName = /functions\/([^/]+)\/invocations/.exec(String(req.url))?.[1] ?? '';
      const { Records } = JSON.parse(Buffer.concat(chunks).toString()) as { Records: StreamRecord[] };
      const invocation = {
        functionName,
        ids: Records.map((r) => String((r.dynamodb?.NewImage as { id?: { S?: string } } | undefined)?.id?.S)),
        sequenceNumbers: Records.map((r) => String(r.dynamodb?.SequenceNumber)),
      };
      invocations.push(invocation);
      if (fails(invocation, invocations.length - 1))
        res
          .writeHead(200, { 'x-amz-function-error': 'Unhandled' })
          .end(JSON.stringify({ errorMessage: 'failed on purpose', errorType: 'Error' }));
      else res.writeHead(200).end('null');
    });
  });
  return new Promise((resolve) =>
    lambda.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(lambda.address() as AddressInfo).port}`),
    ),
  );
}

async function reader(
  mapping: Partial<EventSourceMapping> & { functionName: string },
  options: { idlePollMs?: number } = {},
): Promise<StreamReader> {
  const started = await startStreamReader({
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT as string,
    table: tableName(),
    lambdaUrl,
    mapping: {
      filterPatterns: signalStreamPatterns(),
      batchSize: 100,
      batchWindowMs: 0,
      maximumRetryAttempts: 2,
      bisectBatchOnFunctionError: false,
      ...mapping,
    },
    pollMs: 50,
    ...options,
    retryBaseMs: 20,
    log: (line) => logged.push(line),
  });
  readers.push(started);
  return started;
}

const change = (id: string): Change => ({ org: 'streams', id, resource: 'node', operation: 'modified' });
const of = (functionName: string) => invocations.filter((i) => i.functionName === functionName);

beforeAll(async () => {
  await createTableIfMissing(tableName());
  await bootstrap();
  lambdaUrl = await startLambdaApi();
});

afterAll(async () => {
  for (const started of readers) await started.stop();
  lambda?.close();
  await dynamoClient.send(new DeleteTableCommand({ TableName: tableName() })).catch(() => undefined);
});

describe('the local reader of an event source mapping', () => {
  it('invokes a function that failed once again, with the same records', async () => {
    const started = await reader({ functionName: 'fails-once' });
    fails = (invocation) => invocation.functionName === 'fails-once' && of('fails-once').length === 1;
    await recordChanges([change('a'), change('b')]);
    await vi.waitFor(() => expect(of('fails-once')).toHaveLength(2), { timeout: 30_000, interval: 50 });
    const [first, second] = of('fails-once');
    expect(first?.ids).toEqual(['a', 'b']);
    expect(second).toEqual(first);
    expect(started.failures()).toBe(1);
    expect(started.dropped()).toBe(0);
    await started.stop();
  });

  it('gives up after the mapping’s retries and drops the records with a logged line', async () => {
    const started = await reader({ functionName: 'always-fails', maximumRetryAttempts: 2 });
    fails = (invocation) => invocation.functionName === 'always-fails';
    await recordChanges([change('c')]);
    await vi.waitFor(() => expect(started.dropped()).toBe(1), { timeout: 30_000, interval: 50 });
    expect(of('always-fails').map((i) => i.ids)).toEqual([['c'], ['c'], ['c']]);
    expect(
      logged.some((line) => /dropped 1 record\(s\) of always-fails: failed after its retries/.test(line)),
    ).toBe(true);
    // The reader goes on with what comes next.
    fails = () => false;
    await recordChanges([change('d')]);
    await vi.waitFor(() => expect(of('always-fails').at(-1)?.ids).toEqual(['d']), {
      timeout: 30_000,
      interval: 50,
    });
    await started.stop();
  });

  it('halves a failing batch (bisectBatchOnFunctionError) until only the failing record is dropped', async () => {
    const started = await reader({
      functionName: 'bisects',
      bisectBatchOnFunctionError: true,
      maximumRetryAttempts: 3,
    });
    fails = (invocation) => invocation.functionName === 'bisects' && invocation.ids.includes('poison');
    await recordChanges([change('e'), change('poison'), change('f'), change('g')]);
    await vi.waitFor(() => expect(started.dropped()).toBe(1), { timeout: 30_000, interval: 50 });
    const delivered = of('bisects')
      .filter((i) => !i.ids.includes('poison'))
      .flatMap((i) => i.ids);
    expect(delivered.sort()).toEqual(['e', 'f', 'g']);
    expect(of('bisects')[0]?.ids).toEqual(['e', 'poison', 'f', 'g']);
    await started.stop();
  });

  it('reads at once when awaited, however slowly it reads while idle', async () => {
    // Idle for ten minutes between reads: only `settled()` waking it brings the record in time.
    const started = await reader({ functionName: 'wakes' }, { idlePollMs: 600_000 });
    await started.settled();
    await recordChanges([change('h')]);
    await started.settled();
    expect(of('wakes').flatMap((i) => i.ids)).toEqual(['h']);
    await started.stop();
  });
});
