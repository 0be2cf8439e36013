import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { Entity, EntityRepository, type FormattedItem, item, list, string } from 'dynamodb-toolbox';
import { keys } from './keys.ts';
import { ExchangeTable } from './table.ts';

const versionsSchema = item({
  agentSoftwareVersions: list(string()).default([]),
  agentConfigVersions: list(string()).default([]),
  agentCertVersions: list(string()).default([]),
  lastUpdated: string(),
});

/**
 * The agent file versions of the hub: one item `ORG#IBM` / `AGENTFILEVERSION` (upstream keeps them
 * for org IBM only), written by agbots and admins, read by every agent.
 */
export const AgentFileVersionsEntity = new Entity({
  name: 'agentFileVersions',
  table: ExchangeTable,
  timestamps: false,
  schema: versionsSchema,
  computeKey: () => keys.agentFileVersions(),
});
const repository = AgentFileVersionsEntity.build(EntityRepository);

export type AgentFileVersions = Omit<FormattedItem<typeof AgentFileVersionsEntity>, 'lastUpdated'>;

export async function getAgentFileVersions(): Promise<
  FormattedItem<typeof AgentFileVersionsEntity> | undefined
> {
  const { Item } = await repository.get({}, { consistent: true });
  return Item;
}

export async function putAgentFileVersions(versions: AgentFileVersions, lastUpdated: string): Promise<void> {
  await repository.put({ ...versions, lastUpdated });
}

/** Empties the three lists; false (and nothing written) when no versions were ever stored. */
export async function clearAgentFileVersions(lastUpdated: string): Promise<boolean> {
  try {
    await repository.put(
      { agentSoftwareVersions: [], agentConfigVersions: [], agentCertVersions: [], lastUpdated },
      { condition: { attr: 'lastUpdated', exists: true } },
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
