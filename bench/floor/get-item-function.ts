import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#tables/client';
import { nodeKeys } from '#tables/keys/node';

/**
 * The benchmark's floor for GET node (bench only, never deployed: it checks no credentials). It
 * makes only the one GetItem a warm GET node needs and answers the same shape, with no
 * authentication, routing, validation or entity formatting, so that its rate over an HTTP layer is
 * the best any handler doing that GetItem could reach there. Any other path answers `{}` (the
 * readiness probe asks for /v1/admin/version).
 */
interface HttpApiEvent {
  rawPath: string;
}

const json = (body: unknown) => ({
  statusCode: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

export async function handler(event: HttpApiEvent) {
  // /v1/orgs/{org}/nodes/{node}
  const [, version, orgs, org, nodes, id] = event.rawPath.split('/');
  if (version !== 'v1' || orgs !== 'orgs' || nodes !== 'nodes' || !org || !id) return json({});
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: nodeKeys.record(org, id), ConsistentRead: true }),
  );
  return json({ nodes: { [`${org}/${id}`]: Item }, lastIndex: 0 });
}
