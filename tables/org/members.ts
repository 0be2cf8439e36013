import { queryPartition } from '../kernel/query-partition.ts';
import { agbotKeys } from '../keys/agbot.ts';
import { nodeKeys } from '../keys/node.ts';
import { splitOwner, userKeys } from '../keys/user.ts';

/** The org's users, nodes and agbots (gsi1): their partitions, and agbots owned from another org. */
export async function orgMembers(org: string) {
  const ids = new Set<string>();
  const partitions: { pk: string; record: string }[] = [];
  const foreignOwned: { org: string; id: string; owner: string }[] = [];
  for (const [index, record] of [
    [userKeys, 'USER'],
    [nodeKeys, 'NODE'],
    [agbotKeys, 'AGBOT'],
  ] as const) {
    const partition = index.orgIndex(org);
    for (const item of await queryPartition({ index: 'gsi1', partition, projection: 'pk, gsi1sk, #owner' })) {
      const [id, pk, owner] = [String(item.gsi1sk), String(item.pk), String(item.owner ?? '')];
      ids.add(id);
      if (record === 'AGBOT' && owner && splitOwner(owner)[0] !== org) foreignOwned.push({ org, id, owner });
      else partitions.push({ pk, record });
    }
  }
  return { ids, partitions, foreignOwned };
}
