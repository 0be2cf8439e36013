import { Entity, EntityRepository, item, number, string } from 'dynamodb-toolbox';
import { agbotKeys } from '../keys/agbot.ts';
import { ExchangeTable } from '../table.ts';

const agbotSchema = item({
  org: string().key(),
  id: string().key(),
  /** scrypt hash of the agbot token. */
  tokenHash: string().default(''),
  name: string().default(''),
  /** `org/username` of the owning user. */
  owner: string(),
  msgEndPoint: string().default(''),
  lastHeartbeat: string().default(''),
  publicKey: string().default(''),
  /** How many agreements the agbot has: kept by the agreement writes, the condition of `maxAgreements`. */
  agreementCount: number().default(0),
});

/**
 * An agreement bot: `AGBOT#<org>/<id>` / `AGBOT`; its agreements, served patterns and policies
 * and messages live in the same partition. Listed through gsi1 `ORG#<org>#AGBOTS`.
 */
export const AgbotEntity = new Entity({
  name: 'agbot',
  table: ExchangeTable,
  timestamps: false,
  schema: agbotSchema.and((prev) => ({
    gsi1pk: string()
      .hidden()
      .link<typeof prev>(({ org }) => agbotKeys.orgIndex(org)),
    gsi1sk: string()
      .hidden()
      .link<typeof prev>(({ id }) => id),
  })),
  computeKey: ({ org, id }: { org: string; id: string }) => agbotKeys.record(org, id),
});

export const agbotRepository = AgbotEntity.build(EntityRepository);
