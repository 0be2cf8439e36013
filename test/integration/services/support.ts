import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#tables/client';
import { orgChangeRows } from '#test/support/changes';

/** Helpers shared by the services integration tests. */
export type Auth = { user: string; secret: string };

/** A valid POST/PUT body; `extra` overrides fields. */
export const serviceBody = (url: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  label: `${url} label`,
  url,
  version: '1.0.0',
  arch: 'amd64',
  sharable: 'multiple',
  ...extra,
});

/** The org's change rows (resource, id, operation, public), oldest first. */
export async function changeRows(
  org: string,
): Promise<{ resource: string; id: string; operation: string; public: boolean }[]> {
  return (await orgChangeRows(org)).map(({ resource, id, operation, public: isPublic }) => ({
    resource,
    id,
    operation,
    public: isPublic,
  }));
}

/** Every item of a base-table partition (keys only). */
export async function partitionKeys(pk: string): Promise<string[]> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
    }),
  );
  return Items.map((item) => String(item.sk));
}
