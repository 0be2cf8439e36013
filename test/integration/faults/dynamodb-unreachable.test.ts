import { createServer, type Server, type Socket } from 'node:net';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleError } from '#lib/http/on-error';
import { isUnavailable } from '#lib/http/unavailable';
import { DYNAMODB_TIMEOUTS } from '#tables/client';
import { freePort } from '../../../scripts/local/ports.ts';

/**
 * What the Exchange's DynamoDB client (tables/client.ts's timeouts) does when DynamoDB is down
 * (nothing listens: the connection is refused) or frozen (it accepts and never answers): it fails
 * within its bounds, with an error the error middleware answers as a 503 `{code, msg}`, never a
 * 500 and never a request left hanging until the function's timeout. The whole journey (DynamoDB
 * Local stopped under real agents and clients) is test/e2e/faults.test.ts.
 */
const client = (port: number, maxAttempts: number) =>
  new DynamoDBClient({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts,
    requestHandler: DYNAMODB_TIMEOUTS,
  });
const get = new GetItemCommand({ TableName: 'exchange', Key: { pk: { S: 'x' }, sk: { S: 'y' } } });

async function failure(send: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  const error = await send.then(
    () => new Error('it answered'),
    (e: unknown) => e,
  );
  return { error, ms: Date.now() - started };
}

describe('DynamoDB unreachable', () => {
  let frozen: Server;
  const held: Socket[] = [];
  let frozenPort = 0;

  beforeAll(async () => {
    frozen = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => frozen.listen(0, '127.0.0.1', resolve));
    frozenPort = (frozen.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => frozen.close(resolve));
  });

  it('down (connection refused): fails after its 5 attempts, answered 503', async () => {
    const { error } = await failure(client(await freePort(), 5).send(get));
    expect(isUnavailable(error), String(error)).toBe(true);
    // It gave up after its attempts (their back-off is the SDK's, well under a second in all).
    expect((error as { $metadata?: { attempts?: number } }).$metadata?.attempts).toBe(5);
    const response = handleError({ error });
    expect(response.statusCode).toBe(503);
    expect(JSON.parse(String(response.body)).code).toBe('database-connection-error');
  });

  it('frozen (accepts, never answers): one attempt gives up at the request timeout, answered 503', async () => {
    const { error, ms } = await failure(client(frozenPort, 1).send(get));
    expect(isUnavailable(error), String(error)).toBe(true);
    expect((error as Error).name).toBe('TimeoutError');
    // It waited for the answer's timeout, not less (how much more is the machine's load).
    expect(ms).toBeGreaterThanOrEqual(DYNAMODB_TIMEOUTS.requestTimeout - 100);
    expect(handleError({ error }).statusCode).toBe(503);
  });

  it("the client's worst case (5 attempts at the request timeout, plus backoff) stays under the function's 29 s", () => {
    expect(5 * DYNAMODB_TIMEOUTS.requestTimeout + 3_000).toBeLessThan(29_000);
  });
});
