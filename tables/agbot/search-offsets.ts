import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../client.ts';
import { agbotKeys } from '../keys/agbot.ts';

/**
 * An agbot's paging state of one deployment-policy search (docs/exchange-catalog.md#policy-search): the offset (a
 * node lastUpdated) and the session it belongs to, in the agbot's partition so it goes with the
 * agbot. `policyCreated` ties it to one incarnation of the policy: a policy deleted and created
 * again under the same name starts without an offset (upstream deletes the rows with the policy).
 */
export interface SearchOffset {
  offset: string;
  session: string;
  policyCreated: string;
}

type Agbot = { org: string; id: string };
type Policy = { org: string; name: string; created: string };

export async function getSearchOffset(agbot: Agbot, policy: Policy): Promise<SearchOffset | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({
      TableName: tableName(),
      Key: agbotKeys.searchOffset(agbot.org, agbot.id, policy.org, policy.name),
      ConsistentRead: true,
    }),
  );
  if (!Item || Item.policyCreated !== policy.created) return undefined;
  return { offset: String(Item.offset), session: String(Item.session), policyCreated: policy.created };
}

export async function putSearchOffset(
  agbot: Agbot,
  policy: Policy,
  offset: string,
  session: string,
): Promise<void> {
  await documentClient.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...agbotKeys.searchOffset(agbot.org, agbot.id, policy.org, policy.name),
        offset,
        session,
        policyCreated: policy.created,
      },
    }),
  );
}

export async function deleteSearchOffset(agbot: Agbot, policy: Policy): Promise<void> {
  await documentClient.send(
    new DeleteCommand({
      TableName: tableName(),
      Key: agbotKeys.searchOffset(agbot.org, agbot.id, policy.org, policy.name),
    }),
  );
}
