import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGunzip } from 'node:zlib';
import {
  BatchWriteItemCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ScanCommand,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { FORMAT, FORMAT_VERSION, type Item, kindOf, lineToItem, type Manifest } from './format.ts';

/** A BatchWriteItem takes at most 25 items. */
const BATCH = 25;
/** Attempts of a batch's unprocessed items, backing off from 50 ms to 5 s between them. */
const ATTEMPTS = 12;

export interface RestoreOptions {
  client: DynamoDBClient;
  table: string;
  file: string;
  /** Write into a table that already holds items (the file's items replace those of the same keys). */
  force: boolean;
  /** BatchWriteItem calls in flight at once. */
  concurrency: number;
  progress?: (items: number) => void;
}

/** A message for the operator: what is wrong and what to do. */
export class RestoreRefused extends Error {}

/** The manifest, the first line of a backup file; refuses a file that is not one. */
export async function readManifest(file: string): Promise<Manifest> {
  const input = createReadStream(file);
  try {
    for await (const line of lines(input)) return parseManifest(line, file);
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('Z_'))
      throw new RestoreRefused(
        `${file} is not a gzip file (${(error as Error).message}): not a backup of npm run backup`,
      );
    throw error;
  } finally {
    input.destroy();
  }
  throw new RestoreRefused(`${file} is empty: not a backup of npm run backup`);
}

function parseManifest(line: string, file: string): Manifest {
  let manifest: Partial<Manifest> | undefined;
  try {
    manifest = JSON.parse(line);
  } catch {
    manifest = undefined;
  }
  if (manifest?.format !== FORMAT)
    throw new RestoreRefused(`${file} does not start with a backup manifest: not a backup of npm run backup`);
  if (manifest.version !== FORMAT_VERSION)
    throw new RestoreRefused(
      `${file} is a backup of format version ${manifest.version}; this restore reads ${FORMAT_VERSION}`,
    );
  return manifest as Manifest;
}

/** The lines of a gzip file (of one member or several). */
function lines(file: ReturnType<typeof createReadStream>): AsyncIterable<string> {
  return createInterface({ input: file.pipe(createGunzip()), crlfDelay: Number.POSITIVE_INFINITY });
}

/**
 * Loads a backup into `table`: checks the file's manifest and that the table has the same key
 * schema, refuses a table that holds any item unless `force`, then writes every item with
 * BatchWriteItem (`concurrency` calls in flight, unprocessed items retried with backoff), and
 * checks that it wrote as many items of each kind as the manifest counted. Resolves the manifest.
 */
export async function restoreTable(options: RestoreOptions): Promise<Manifest> {
  const { client, table, file } = options;
  const manifest = await readManifest(file);
  const { Table } = await client.send(new DescribeTableCommand({ TableName: table }));
  const keys = (schema: { AttributeName?: string; KeyType?: string }[] = []) =>
    schema.map((k) => `${k.AttributeName} ${k.KeyType}`).join(', ');
  if (keys(Table?.KeySchema) !== keys(manifest.keySchema))
    throw new RestoreRefused(
      `table ${table} has the key schema (${keys(Table?.KeySchema)}), the backup (${keys(manifest.keySchema)})`,
    );
  const missing = manifest.indexes
    .map((index) => index.name)
    .filter((name) => !(Table?.GlobalSecondaryIndexes ?? []).some((index) => index.IndexName === name));
  if (missing.length > 0)
    throw new RestoreRefused(
      `table ${table} lacks the indexes ${missing.join(', ')} that the backup's table had`,
    );
  if (!options.force) {
    const { Items = [] } = await client.send(new ScanCommand({ TableName: table, Limit: 1 }));
    if (Items.length > 0)
      throw new RestoreRefused(
        `table ${table} is not empty: restore into an empty table, or add --force to write the backup's items over it (items of the same keys are replaced, others stay)`,
      );
  }
  const counted: Record<string, number> = {};
  let written = 0;
  const inFlight = new Set<Promise<void>>();
  let failed: unknown;
  const send = (batch: Item[]) => {
    const done = writeBatch(client, table, batch).then(
      () => {
        written += batch.length;
        options.progress?.(written);
      },
      (error: unknown) => {
        failed ??= error;
      },
    );
    const tracked = done.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };
  let batch: Item[] = [];
  let first = true;
  for await (const line of lines(createReadStream(file))) {
    if (first) {
      first = false;
      continue;
    }
    if (!line) continue;
    const item = lineToItem(line);
    const kind = kindOf(item);
    counted[kind] = (counted[kind] ?? 0) + 1;
    batch.push(item);
    if (batch.length === BATCH) {
      send(batch);
      batch = [];
      while (inFlight.size >= options.concurrency) await Promise.race(inFlight);
    }
    if (failed) break;
  }
  if (batch.length > 0 && !failed) send(batch);
  await Promise.all(inFlight);
  if (failed) throw failed;
  const short = Object.entries(manifest.kinds).filter(([kind, n]) => counted[kind] !== n);
  if (short.length > 0 || written !== manifest.items)
    throw new RestoreRefused(
      `the file holds ${written} items where its manifest counts ${manifest.items}` +
        (short.length ? ` (${short.map(([k, n]) => `${k}: ${counted[k] ?? 0} of ${n}`).join(', ')})` : '') +
        ': the file is cut short or damaged',
    );
  return manifest;
}

/** Writes one batch, retrying what DynamoDB leaves unprocessed (throttling) with backoff. */
async function writeBatch(client: DynamoDBClient, table: string, items: Item[]): Promise<void> {
  let requests: WriteRequest[] = items.map((Item) => ({ PutRequest: { Item } }));
  for (let attempt = 0; requests.length > 0; attempt += 1) {
    if (attempt === ATTEMPTS)
      throw new Error(
        `${requests.length} items still unprocessed after ${ATTEMPTS} attempts: DynamoDB keeps throttling`,
      );
    if (attempt > 0) await sleep(Math.min(5000, 50 * 2 ** attempt) * (0.5 + Math.random() / 2));
    const { UnprocessedItems } = await client.send(
      new BatchWriteItemCommand({ RequestItems: { [table]: requests } }),
    );
    requests = UnprocessedItems?.[table] ?? [];
  }
}
