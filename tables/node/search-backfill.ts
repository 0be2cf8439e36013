import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../client.ts';
import { queryAll } from '../kernel/query-all.ts';
import { nodeKeys } from '../keys/node.ts';
import { listOrgs } from '../org/records.ts';
import { listNodeAgreements } from './agreement-records.ts';

/**
 * Nodes written before the searches' index (gsi2) lack its keys and their agreement summary:
 * give each one both, only while it still carries the `lastUpdated` read (a node written meanwhile
 * got them from that write). Idempotent; the local launcher runs it at every start (one filtered
 * Query of each org's nodes; writes only the nodes that lack the keys); on AWS, run it once after
 * deploying: `npm run backfill-search`. Resolves how many nodes it completed.
 */
export async function backfillNodeSearch(): Promise<number> {
  let completed = 0;
  for (const { org } of await listOrgs()) {
    for (const node of await nodesWithoutSearchKeys(org)) {
      const summary = Object.fromEntries(
        (await listNodeAgreements(org, node.id, 'all')).map((a) => [
          a.agreementId,
          { url: a.agrService.url, state: a.state, lastUpdated: a.lastUpdated },
        ]),
      );
      try {
        await documentClient.send(
          new UpdateCommand({
            TableName: tableName(),
            Key: nodeKeys.record(org, node.id),
            UpdateExpression: 'SET gsi2pk = :pk, gsi2sk = :sk, agreementServices = :summary',
            ConditionExpression: 'lastUpdated = :read AND attribute_not_exists(gsi2pk)',
            ExpressionAttributeValues: {
              ':pk': nodeKeys.searchIndex(org, node.pattern),
              ':sk': nodeKeys.searchSort(node.lastUpdated, node.id),
              ':summary': summary,
              ':read': node.lastUpdated,
            },
          }),
        );
        completed++;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    }
  }
  return completed;
}

/** The org's nodes that have no gsi2 keys yet (one gsi1 Query, every page, filtered). */
async function nodesWithoutSearchKeys(
  org: string,
): Promise<{ id: string; pattern: string; lastUpdated: string }[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    FilterExpression: 'attribute_not_exists(gsi2pk)',
    ProjectionExpression: 'id, pattern, lastUpdated',
    ExpressionAttributeValues: { ':pk': nodeKeys.orgIndex(org) },
  });
  return items.map((item) => ({
    id: String(item.id),
    pattern: String(item.pattern ?? ''),
    lastUpdated: String(item.lastUpdated),
  }));
}
