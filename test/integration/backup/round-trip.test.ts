import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  type AttributeValue,
  DeleteTableCommand,
  PutItemCommand,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupTable } from '#tables/backup/backup';
import type { Manifest } from '#tables/backup/format';
import { RestoreRefused, restoreTable } from '#tables/backup/restore';
import { dynamoClient, tableName } from '#tables/client';
import { createTableIfMissing } from '#tables/create-table';
import { seedDeploymentPolicy, seedManagementPolicy, seedPattern, seedService } from '#test/support/catalog';
import type { Credentials } from '#test/support/http';
import { useInProcessExchange } from '#test/support/in-process-exchange';
import {
  createOrgWorld,
  createUser,
  expectStatus,
  type Fixtures,
  type OrgWorld,
  putNodePolicy,
} from '#test/support/world';
import { createSendingAgbot } from '../node-messages/fixtures.ts';
import { serveOrg, servePatterns, useTempMasterKey } from '../secrets/support.ts';

/**
 * npm run backup and npm run restore (tables/backup/), end to end on DynamoDB Local: a hub seeded
 * over HTTP with every kind of record an org holds, backed up, restored into a fresh table, then
 * compared item by item; the restored hub serves its node (its credentials, its agreement) and its
 * secret (still sealed, opened by the same key).
 */
useTempMasterKey();
const server = useInProcessExchange();
const dir = mkdtempSync(join(tmpdir(), 'backup-'));
const source = tableName();
const restored = `${source}-restored`;
let world: OrgWorld;
let manifest: Manifest;
const file = join(dir, 'hub.jsonl.gz');

/** Every item of a table, in key order, as DynamoDB holds it. */
async function everything(table: string): Promise<Record<string, AttributeValue>[]> {
  const items: Record<string, AttributeValue>[] = [];
  let ExclusiveStartKey: Record<string, AttributeValue> | undefined;
  do {
    const page = await dynamoClient.send(
      new ScanCommand({ TableName: table, ConsistentRead: true, ExclusiveStartKey }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  const key = (item: Record<string, AttributeValue>) => `${item.pk?.S}\u0000${item.sk?.S}`;
  return items.sort((a, b) => key(a).localeCompare(key(b)));
}

const as = (auth: Credentials) => ({ auth });

beforeAll(async () => {
  const f: Fixtures = { http: server.http, root: { user: 'root/root', secret: server.rootPassword } };
  await createUser(f, 'root', 'hubadmin', { hubAdmin: true });
  world = await createOrgWorld(f, 'bk');
  const { org, admin, node, agbot } = world;
  await putNodePolicy(f, node);
  await seedService(org, { url: 'svc.example', version: '1.0.0', arch: 'amd64' });
  await seedDeploymentPolicy(org, 'dp');
  await seedPattern(org, 'pat');
  await seedManagementPolicy(org, 'mp');
  const put = async (auth: Credentials, path: string, body: unknown, status = 201) =>
    expectStatus(await f.http('PUT', `/v1/orgs/${org}${path}`, { ...as(auth), body }), status, `PUT ${path}`);
  await put(admin, '/secrets/greeting', { key: 'text', value: 'hello from before the backup' });
  const agreementService = { orgid: org, pattern: '', url: 'svc.example' };
  await put(node, '/nodes/node1/agreements/ag1', { services: [], agreementService, state: 'negotiating' });
  await put(agbot, '/agbots/agbot1/agreements/ag1', { service: agreementService, state: 'negotiating' });
  await put(node, '/nodes/node1/status', { connectivity: {}, services: [] });
  await put(node, '/nodes/node1/errors', {
    errors: [{ record_id: 'e1', message: 'an error', event_code: 'x' }],
  });
  await Promise.all([serveOrg(org, 'agbot1', org), servePatterns(org, 'agbot1', org)]);
  const sender = await createSendingAgbot(org, 'sender', world.user.user);
  expectStatus(
    await f.http('POST', `/v1/orgs/${org}/nodes/node1/msgs`, {
      ...as(sender),
      body: { message: 'hi', ttl: 3600 },
    }),
    201,
    'POST node msg',
  );
  expectStatus(
    await f.http('PATCH', `/v1/orgs/${org}/nodes/node1`, {
      ...as(node),
      body: { publicKey: 'node1-public-key' },
    }),
    201,
    'PATCH node publicKey',
  );
  expectStatus(
    await f.http('POST', `/v1/orgs/${org}/agbots/sender/msgs`, {
      ...as(node),
      body: { message: 'hello', ttl: 3600 },
    }),
    201,
    'POST agbot msg',
  );
  // Values of every DynamoDB type (binary ones are base64 in the file) survive the trip.
  await dynamoClient.send(
    new PutItemCommand({
      TableName: source,
      Item: {
        pk: { S: 'TYPES#probe' },
        sk: { S: 'TYPES' },
        b: { B: new Uint8Array([0, 1, 254, 255]) },
        bs: { BS: [new Uint8Array([1]), new Uint8Array([2, 3])] },
        ns: { NS: ['1', '2.5'] },
        ss: { SS: ['a', 'b'] },
        nul: { NULL: true },
        bool: { BOOL: false },
        m: { M: { B: { S: 'a map key named B' }, l: { L: [{ N: '-1' }, { B: new Uint8Array([9]) }] } } },
      },
    }),
  );
  manifest = await backupTable({
    client: dynamoClient,
    table: source,
    file,
    segments: 4,
    where: 'test',
    secretsKey: 'the test master key',
  });
  await createTableIfMissing(restored, { stream: false });
  await restoreTable({ client: dynamoClient, table: restored, file, force: false, concurrency: 4 });
});

afterAll(async () => {
  process.env.EXCHANGE_TABLE = source;
  await dynamoClient.send(new DeleteTableCommand({ TableName: restored })).catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run backup, then npm run restore into a fresh table', () => {
  it('writes a manifest: the items by kind, the key schema and indexes, the keys the secrets need', () => {
    expect(manifest.items).toBeGreaterThan(40);
    expect(Object.values(manifest.kinds).reduce((a, b) => a + b, 0)).toBe(manifest.items);
    expect(Object.keys(manifest.kinds)).toEqual(
      expect.arrayContaining([
        'ORG ORG',
        'ORG STATS',
        'USER USER',
        'NODE NODE',
        'AGBOT AGBOT',
        'SERVICE SERVICE',
      ]),
    );
    expect(manifest.keySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(manifest.indexes.map((i) => i.name).sort()).toEqual(['gsi1', 'gsi2']);
    // One secret sealed under the local master key (its fingerprint), nothing in clear.
    expect(Object.values(manifest.secretKeys).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect(manifest.secretsKey).toBe('the test master key');
    expect(gunzipSync(readFileSync(file)).toString()).not.toContain('hello from before the backup');
  });

  it('restores every item exactly as it was stored', async () => {
    const [before, after] = await Promise.all([everything(source), everything(restored)]);
    expect(after.length).toBe(manifest.items);
    expect(after).toEqual(before);
  });

  it('leaves a hub that serves its node, its agreement and its secret', async () => {
    process.env.EXCHANGE_TABLE = restored;
    try {
      const agreements = await server.http('GET', '/v1/orgs/bk/nodes/node1/agreements', as(world.node));
      expect(agreements.status).toBe(200);
      expect(Object.keys(agreements.body?.agreements ?? {})).toEqual(['ag1']);
      const secret = await server.http('GET', '/v1/orgs/bk/secrets/greeting', as(world.admin));
      expect(secret.status).toBe(200);
      expect(secret.body).toMatchObject({ value: 'hello from before the backup' });
    } finally {
      process.env.EXCHANGE_TABLE = source;
    }
  });

  it('refuses a table that holds items unless forced, and then writes over it', async () => {
    const again = { client: dynamoClient, table: restored, file, concurrency: 2 };
    await expect(restoreTable({ ...again, force: false })).rejects.toThrow(
      new RestoreRefused(
        `table ${restored} is not empty: restore into an empty table, or add --force to write the backup's items over it (items of the same keys are replaced, others stay)`,
      ),
    );
    await restoreTable({ ...again, force: true });
    expect((await everything(restored)).length).toBe(manifest.items);
  });

  it('refuses a file cut short, and a file that is not a backup', async () => {
    const lines = gunzipSync(readFileSync(file)).toString().trimEnd().split('\n');
    const short = join(dir, 'short.jsonl.gz');
    writeFileSync(short, gzipSync(`${lines.slice(0, -3).join('\n')}\n`));
    const other = `${restored}-short`;
    await createTableIfMissing(other, { stream: false });
    try {
      await expect(
        restoreTable({ client: dynamoClient, table: other, file: short, force: false, concurrency: 2 }),
      ).rejects.toThrow(
        /the file holds \d+ items where its manifest counts \d+ .*: the file is cut short or damaged/,
      );
    } finally {
      await dynamoClient.send(new DeleteTableCommand({ TableName: other }));
    }
    const notBackup = join(dir, 'not.jsonl.gz');
    writeFileSync(notBackup, gzipSync('{"hello":"world"}\n'));
    await expect(
      restoreTable({ client: dynamoClient, table: restored, file: notBackup, force: true, concurrency: 2 }),
    ).rejects.toThrow(`${notBackup} does not start with a backup manifest: not a backup of npm run backup`);
  });
});
