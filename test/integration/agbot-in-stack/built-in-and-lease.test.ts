import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VerificationCache } from '#lib/auth/secrets';
import { localKeyProvider } from '#lib/secrets/local-key-provider';
import { useKeyProvider } from '#lib/secrets/provider';
import { ensureBuiltInAgbot } from '#tables/agbot/built-in';
import { getAgbot } from '#tables/agbot/records';
import { bootstrap } from '#tables/bootstrap';
import { documentClient, tableName } from '#tables/client';
import { createTableIfMissing } from '#tables/create-table';
import { agbotKeys } from '#tables/keys/agbot';
import { builtInAgbotToken } from '../../../agbot/lambda/built-in-token.ts';
import { roundLease } from '../../../agbot/lambda/round-lease.ts';

/**
 * The in-stack agbot's own items, against DynamoDB Local: the built-in agbot's sealed token (made
 * by initdb, read by the round function) and the round lease (one round at a time).
 */
const scratch = mkdtempSync(join(tmpdir(), 'agbot-in-stack-'));

beforeAll(async () => {
  useKeyProvider(localKeyProvider(Buffer.alloc(32, 7)));
  await createTableIfMissing(tableName());
  await bootstrap();
});
afterAll(() => {
  useKeyProvider(undefined);
  rmSync(scratch, { recursive: true, force: true });
});

describe('the built-in agbot IBM/agbot', () => {
  it('is created once, owned by root, with a token kept only sealed, which the round function reads', async () => {
    const token = await ensureBuiltInAgbot();
    expect(await ensureBuiltInAgbot()).toBe(token);
    const agbot = await getAgbot('IBM', 'agbot');
    expect(agbot?.owner).toBe('root/root');
    expect(await new VerificationCache(() => 0).verify(agbot?.tokenHash, token)).toBe(true);
    const { Item } = await documentClient.send(
      new GetCommand({ TableName: tableName(), Key: agbotKeys.token('IBM', 'agbot') }),
    );
    expect(JSON.stringify(Item)).not.toContain(token);
    expect(await builtInAgbotToken()).toBe(token);
  });
});

describe('the round lease', () => {
  const agbot = { org: 'IBM', id: 'lease-test' };

  it('lets one invocation hold it; another asks the holder for one more round, which the release reports', async () => {
    const now = Date.now();
    const first = roundLease(agbot, 'first');
    const second = roundLease(agbot, 'second');
    expect(await first.acquire(now, now + 60_000)).toBe(true);
    expect(await second.acquire(now, now + 60_000)).toBe(false);
    expect(await first.release(now + 60_000)).toBe('again');
    expect(await first.release(now + 60_000)).toBe('released');
    expect(await second.acquire(Date.now(), Date.now() + 60_000)).toBe(true);
    await second.abandon();
  });

  it('is taken over once it expired (a crashed holder), and the late holder learns it lost it', async () => {
    const now = Date.now();
    const crashed = roundLease(agbot, 'crashed');
    const next = roundLease(agbot, 'next');
    expect(await crashed.acquire(now, now + 1_000)).toBe(true);
    expect(await next.acquire(now + 2_000, now + 60_000)).toBe(true);
    expect(await crashed.release(now + 60_000)).toBe('lost');
    expect(await next.release(now + 60_000)).toBe('released');
  });
});
