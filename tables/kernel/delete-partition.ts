import { batchDelete, type Key } from './batch-delete.ts';
import { queryPartition } from './query-partition.ts';

/**
 * Deletes every item of partition `pk` and returns the keys it deleted. `last` (the entity's own
 * record) goes after all the others; `keep` is left in place (the caller deletes it itself, e.g. in
 * a counted transaction).
 */
export async function deletePartition(
  pk: string,
  options: { last?: string; keep?: string } = {},
): Promise<Key[]> {
  const found = (await queryPartition({ partition: pk, projection: 'pk, sk' })) as Key[];
  const children = found.filter((key) => key.sk !== options.last && key.sk !== options.keep);
  await batchDelete(children);
  const record = found.find((key) => key.sk === options.last);
  if (record) await batchDelete([record]);
  return record ? [...children, record] : children;
}
