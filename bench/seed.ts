import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { PutItemCommand } from 'dynamodb-toolbox';
import { hashSecret } from '#lib/auth/secrets';
import { bootstrap } from '#tables/bootstrap';
import { documentClient, tableName } from '#tables/client';
import { createTableIfMissing } from '#tables/create-table';
import { identityKeys } from '#tables/identity/keys';
import { nodeEntry } from '#tables/identity/records';
import { transactWrite } from '#tables/kernel/transact';
import { NodeEntity } from '#tables/node/entity';
import { orgCounterUpdate, userCounterUpdate } from '#tables/org/stats';
import { createNode, createOrg, createUser } from '#test/support/identities';

/** The benchmark's data: org `bench`, user `alice` who owns `node-0`…`node-9`, then bulk nodes. */
export const ORG = 'bench';
export const USER = 'alice';
export const BASE_NODES = 10;
export const nodeId = (i: number) => `node-${i}`;

export async function seedBase(): Promise<{ user: string; secret: string }> {
  await createTableIfMissing(tableName());
  await bootstrap();
  await createOrg(ORG);
  const alice = await createUser(ORG, USER, { password: 'alice-bench-pw' });
  for (let i = 0; i < BASE_NODES; i++) await createNode(ORG, nodeId(i), alice.user);
  return alice;
}

/** Adds nodes (with their principal items) with BatchWrite (25 per call, several at once) until the org holds `total`. */
export async function growNodes(total: number): Promise<void> {
  const tokenHash = await hashSecret('bulk-node-token');
  const lastUpdated = new Date().toISOString();
  const items: Record<string, unknown>[] = [];
  const owner = `${ORG}/${USER}`;
  for (let i = BASE_NODES; i < total; i++) {
    const { Item } = NodeEntity.build(PutItemCommand)
      .item({ org: ORG, id: nodeId(i), owner, name: nodeId(i), tokenHash, lastUpdated })
      .params();
    if (Item)
      items.push(Item, { ...identityKeys.principal(ORG, nodeId(i)), node: nodeEntry({ tokenHash, owner }) });
  }
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++] ?? [];
      let pending = batch.map((Item) => ({ PutRequest: { Item } }));
      while (pending.length > 0) {
        const result = await documentClient.send(
          new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }),
        );
        pending = (result.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  // Keep the counters true to the table, as the handlers would have.
  const deltas = { nodes: total - BASE_NODES };
  await transactWrite([orgCounterUpdate(ORG, { deltas }), userCounterUpdate(ORG, USER, { deltas })]);
}
