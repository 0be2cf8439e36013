import { principalCache } from '../identity/principals.ts';
import { deletePartition } from '../kernel/delete-partition.ts';
import { forEachLimited } from '../kernel/for-each-limited.ts';
import { queryPartition } from '../kernel/query-partition.ts';
import { nodeKeys } from '../keys/node.ts';
import { deleteNodeSecrets } from '../secret/records.ts';
import { deleteCounted } from './delete-counted.ts';
import { isRegistered } from './entity.ts';

/**
 * The nodes' part of the user cascade (tables/cascade.ts runs it): the nodes `owner`
 * (`org/username`) owns in `org`, each with its whole partition, then its record in a counted
 * transaction (org counters adjusted, principal entry removed), then its secrets.
 */
export async function deleteOwnedNodes(org: string, owner: string): Promise<void> {
  const nodes = await queryPartition({ index: 'gsi1', partition: nodeKeys.orgIndex(org), owner });
  // Each node's messages and agreements go with its partition (the org's counters of them follow
  // from the table's stream, tables/org/stream-counts.ts).
  await forEachLimited(nodes, (node) => deletePartition(String(node.pk), { keep: 'NODE' }));
  await deleteCounted(
    org,
    nodes.map((node) => ({
      key: { pk: String(node.pk), sk: 'NODE' },
      principal: { id: String(node.gsi1sk), kind: 'node' },
      deltas: {
        nodes: -1,
        registeredNodes: isRegistered(node as { pattern?: string; publicKey?: string }) ? -1 : 0,
      },
    })),
  );
  for (const node of nodes) principalCache.forget(org, String(node.gsi1sk));
  // The secrets manager (issue 12): the nodes' secrets.
  await forEachLimited(nodes, (node) => deleteNodeSecrets(org, String(node.gsi1sk)));
}
