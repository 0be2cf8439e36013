import { PutTransaction } from 'dynamodb-toolbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getUsers } from '#functions/users/get-users';
import { tableName } from '#tables/client';
import { LIST_MAX_PAGES, LIST_MAX_RECORDS, queryPages } from '#tables/kernel/list-ceiling';
import { UserEntity } from '#tables/user/entity';
import { batchPut } from '#test/support/batch-put';
import { createOrg, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { commandsOf } from '../principals/support.ts';

useTestTable();

// Every list a request reads has a ceiling (issue 23 item 7): records, and DynamoDB pages.

const USERS = LIST_MAX_RECORDS + 40;

beforeAll(async () => {
  await createOrg('crowd');
  // Users written in batches (no password: they cannot log in); the list reads the org's index.
  const now = new Date().toISOString();
  const items = Array.from({ length: USERS }, (_, i) => {
    const params = UserEntity.build(PutTransaction)
      .item({
        org: 'crowd',
        username: `u${String(i).padStart(6, '0')}`,
        passwordHash: '',
        admin: false,
        hubAdmin: false,
        email: '',
        updatedBy: 'root/root',
        lastUpdated: now,
      })
      .params();
    return params.Put?.Item as Record<string, unknown>;
  });
  await batchPut(items);
}, 300_000);

describe('the list ceiling', () => {
  it(`GET /orgs/{org}/users answers at most ${LIST_MAX_RECORDS} users, the first by username`, async () => {
    const result = await invoke(getUsers, { auth: ROOT, path: { organization: 'crowd' } });
    expect(result.status).toBe(200);
    const names = Object.keys(result.body.users as Record<string, unknown>);
    expect(names).toHaveLength(LIST_MAX_RECORDS);
    expect(names[0]).toBe('crowd/u000000');
    expect(names.at(-1)).toBe(`crowd/u${String(LIST_MAX_RECORDS - 1).padStart(6, '0')}`);
  }, 60_000);

  it(`a list read makes at most ${LIST_MAX_PAGES} Queries however large its records; a cascade reads them all`, async () => {
    // Items of ~350 KB: a 1 MB page holds two or three, so the partition spans more pages than allowed.
    const big = 'x'.repeat(350_000);
    const count = 3 * LIST_MAX_PAGES + 3;
    await batchPut(
      Array.from({ length: count }, (_, i) => ({ pk: 'BIGLIST', sk: String(i).padStart(4, '0'), big })),
    );
    const input = {
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': 'BIGLIST' },
    };
    let capped: Record<string, unknown>[] = [];
    const cappedCalls = await commandsOf(async () => {
      capped = await queryPages(input, 'capped');
    });
    expect(cappedCalls).toEqual(Array(LIST_MAX_PAGES).fill('QueryCommand'));
    expect(capped.length).toBeGreaterThan(0);
    expect(capped.length).toBeLessThan(count);
    expect(capped.map((item) => item.sk)).toEqual(
      Array.from({ length: capped.length }, (_, i) => String(i).padStart(4, '0')),
    );
    let all: Record<string, unknown>[] = [];
    const allCalls = await commandsOf(async () => {
      all = await queryPages(input, 'all');
    });
    expect(all).toHaveLength(count);
    expect(allCalls.length).toBeGreaterThan(LIST_MAX_PAGES);
  });
});
