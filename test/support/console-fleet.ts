import { PutItemCommand } from 'dynamodb-toolbox';
import { nodeKeys } from '#tables/keys/node';
import { NodeEntity } from '#tables/node/entity';
import { NodeErrorsEntity } from '#tables/node/errors';
import { batchPut } from './batch-put.ts';

/**
 * Nodes written straight to the table for the console's tests and benchmark (no counters, no
 * change rows, no principals: nothing signs in as these nodes): each with its liveness item and,
 * when it has some, its errors item, 25 items a BatchWriteItem.
 */
export interface SeedNode {
  id: string;
  owner: string;
  arch?: string;
  pattern?: string;
  /** Registered by an agent: a public key (the default). */
  registered?: boolean;
  agentVersion?: string;
  /** Seconds before `now` of the last heartbeat; undefined: never. */
  seenAgo?: number;
  maxInterval?: number;
  errors?: Record<string, unknown>[];
  agreements?: Record<string, { url: string; state: string; lastUpdated: string }>;
  name?: string;
}

export async function seedConsoleNodes(org: string, nodes: SeedNode[], now: number): Promise<void> {
  const stamp = new Date(now).toISOString();
  const items: Record<string, unknown>[] = [];
  for (const node of nodes) {
    const { Item } = NodeEntity.build(PutItemCommand)
      .item({
        org,
        id: node.id,
        owner: node.owner,
        name: node.name ?? node.id,
        arch: node.arch ?? 'amd64',
        pattern: node.pattern ?? '',
        publicKey: node.registered === false ? '' : 'PUBLICKEY',
        softwareVersions: node.agentVersion ? { horizon: node.agentVersion } : {},
        heartbeatIntervals: { minInterval: 0, maxInterval: node.maxInterval ?? 0, intervalAdjustment: 0 },
        agreementServices: node.agreements ?? {},
        agreementCount: Object.keys(node.agreements ?? {}).length,
        lastUpdated: stamp,
      })
      .params();
    if (Item) items.push(Item);
    if (node.seenAgo !== undefined)
      items.push({
        ...nodeKeys.heartbeat(org, node.id),
        lastHeartbeat: new Date(now - node.seenAgo * 1000).toISOString(),
      });
    if (node.errors?.length) {
      const errors = NodeErrorsEntity.build(PutItemCommand)
        .item({ org, id: node.id, errors: node.errors, lastUpdated: stamp })
        .params().Item;
      if (errors) items.push(errors);
    }
  }
  await batchPut(items, 4);
}
