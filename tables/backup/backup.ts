import { once } from 'node:events';
import { createReadStream, createWriteStream, renameSync, rmSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzipSync } from 'node:zlib';
import { DescribeTableCommand, type DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import {
  FORMAT,
  FORMAT_VERSION,
  type Item,
  itemToLine,
  kindOf,
  type Manifest,
  sealedKeyIds,
} from './format.ts';

export interface BackupOptions {
  client: DynamoDBClient;
  table: string;
  /** The file to write (gzip JSON lines); written beside it first, renamed when whole. */
  file: string;
  /** Parallel scan segments (AWS, "Parallel scan"): each read by its own worker. */
  segments: number;
  /** Where the table lives, for the manifest (`DynamoDB Local at …`, `AWS us-east-1`). */
  where: string;
  /** The key the hub seals with, for the manifest (Manifest.secretsKey). */
  secretsKey: string;
  /** Called as items arrive (items so far). */
  progress?: (items: number) => void;
}

/**
 * Writes every item of the table to `file` (tables/backup/format.ts), the manifest first: the
 * table's keys and indexes, the items by kind, the keys the sealed secrets need. A Scan of
 * `segments` parallel segments with strongly consistent reads; items written while it runs may or
 * may not be in it (a logical copy: for a copy of one instant on AWS, point-in-time recovery).
 * Resolves the manifest.
 */
export async function backupTable(options: BackupOptions): Promise<Manifest> {
  const { client, table, file, segments } = options;
  const { Table } = await client.send(new DescribeTableCommand({ TableName: table }));
  if (!Table) throw new Error(`table ${table} not found`);
  const startedAt = new Date().toISOString();
  const itemsFile = `${file}.items.partial`;
  const gzip = createGzip();
  const written = pipeline(gzip, createWriteStream(itemsFile));
  const kinds: Record<string, number> = {};
  const secretKeys: Record<string, number> = {};
  let items = 0;
  const write = async (item: Item) => {
    items += 1;
    const kind = kindOf(item);
    kinds[kind] = (kinds[kind] ?? 0) + 1;
    for (const keyId of sealedKeyIds(item)) secretKeys[keyId] = (secretKeys[keyId] ?? 0) + 1;
    if (!gzip.write(`${itemToLine(item)}\n`)) await once(gzip, 'drain');
  };
  const segment = async (index: number) => {
    let startKey: Item | undefined;
    do {
      const page = await client.send(
        new ScanCommand({
          TableName: table,
          Segment: index,
          TotalSegments: segments,
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) await write(item);
      options.progress?.(items);
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  };
  try {
    await Promise.all(Array.from({ length: segments }, (_, index) => segment(index)));
    gzip.end();
    await written;
    const manifest: Manifest = {
      format: FORMAT,
      version: FORMAT_VERSION,
      startedAt,
      finishedAt: new Date().toISOString(),
      source: { table, where: options.where },
      keySchema: Table.KeySchema ?? [],
      attributes: (Table.AttributeDefinitions ?? []).map(({ AttributeName, AttributeType }) => ({
        AttributeName,
        AttributeType,
      })),
      indexes: (Table.GlobalSecondaryIndexes ?? []).map((index) => ({
        name: index.IndexName ?? '',
        keySchema: index.KeySchema ?? [],
        projection: index.Projection ?? {},
      })),
      items,
      kinds: Object.fromEntries(Object.entries(kinds).sort(([a], [b]) => a.localeCompare(b))),
      secretKeys,
      secretsKey: options.secretsKey,
    };
    // The manifest's gzip member first, then the items' (one file of two members, as gzip allows).
    const partial = `${file}.partial`;
    const out = createWriteStream(partial);
    out.write(gzipSync(`${JSON.stringify(manifest)}\n`));
    await pipeline(createReadStream(itemsFile), out);
    renameSync(partial, file);
    return manifest;
  } finally {
    gzip.destroy();
    rmSync(itemsFile, { force: true });
    rmSync(`${file}.partial`, { force: true });
  }
}
