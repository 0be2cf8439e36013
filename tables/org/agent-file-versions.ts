import {
  Entity,
  EntityRepository,
  type FormattedItem,
  item,
  list,
  PutTransaction,
  string,
} from 'dynamodb-toolbox';
import { IBM_ORG } from '#lib/auth/caller';
import { tableName } from '../client.ts';
import { type Change, type ChangeOperation, transactWriteWithChanges } from '../feed/changes.ts';
import { TransactionFailed } from '../kernel/transact.ts';
import { orgKeys } from '../keys/org.ts';
import { ExchangeTable } from '../table.ts';

const versionsSchema = item({
  org: string().key(),
  agentSoftwareVersions: list(string()).default([]),
  agentConfigVersions: list(string()).default([]),
  agentCertVersions: list(string()).default([]),
  lastUpdated: string(),
});

/**
 * The agent file versions of one org: item `ORG#<org>` / `AGENTFILEVERSION` (upstream keeps them
 * for org IBM only), written by agbots and admins, read by the org's agents. Deleting the org
 * deletes its partition, this item with it.
 */
const AgentFileVersionsEntity = new Entity({
  name: 'agentFileVersions',
  table: ExchangeTable,
  timestamps: false,
  schema: versionsSchema,
  computeKey: ({ org }: { org: string }) => orgKeys.agentFileVersions(org),
});
const repository = AgentFileVersionsEntity.build(EntityRepository);

const LISTS = ['agentSoftwareVersions', 'agentConfigVersions', 'agentCertVersions'] as const;
type Stored = FormattedItem<typeof AgentFileVersionsEntity>;
type AgentFileVersions = Omit<Stored, 'org' | 'lastUpdated'>;

/** The org's lists, or undefined when none were ever stored. */
export async function getAgentFileVersions(org: string): Promise<Omit<Stored, 'org'> | undefined> {
  // `org` is not read back: IBM's item from before versions were per org lacks it.
  const { Item } = await repository.get({ org }, { consistent: true, attributes: [...LISTS, 'lastUpdated'] });
  return Item;
}

/** Replaces the org's three lists; false (and nothing written) when the org does not exist. */
export async function putAgentFileVersions(
  org: string,
  versions: AgentFileVersions,
  lastUpdated: string,
): Promise<boolean> {
  try {
    await transactWriteWithChanges(
      [
        {
          ConditionCheck: {
            TableName: tableName(),
            Key: orgKeys.record(org),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        AgentFileVersionsEntity.build(PutTransaction)
          .item({ ...versions, org, lastUpdated })
          .params(),
      ],
      [versionsChange(org, 'created/modified')],
    );
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}

/** Empties the org's three lists; false (and nothing written) when none were ever stored. */
export async function clearAgentFileVersions(org: string, lastUpdated: string): Promise<boolean> {
  try {
    await transactWriteWithChanges(
      [
        AgentFileVersionsEntity.build(PutTransaction)
          .item({
            org,
            agentSoftwareVersions: [],
            agentConfigVersions: [],
            agentCertVersions: [],
            lastUpdated,
          })
          .options({ condition: { attr: 'lastUpdated', exists: true } })
          .params(),
      ],
      [versionsChange(org, 'deleted')],
    );
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}

/**
 * The feed row of an agent-file-versions write (upstream's resource `agentfileversion`). IBM's is
 * public, as upstream's: the versions every agent upgrades to are IBM's, so nodes of every org see
 * the change (docs/nmp.md#the-exchange).
 */
const versionsChange = (org: string, operation: ChangeOperation): Change => ({
  org,
  id: 'AgentFileVersion',
  resource: 'agentfileversion',
  operation,
  public: org === IBM_ORG,
});
