import { Entity, item, map, string } from 'dynamodb-toolbox';
import { agbotKeys } from '../keys/agbot.ts';
import { ExchangeTable } from '../table.ts';

const agreementSchema = item({
  org: string().key(),
  /** The agbot's id within `org`. */
  agbot: string().key(),
  agreementId: string().key(),
  service: map({ orgid: string(), pattern: string(), url: string() }),
  state: string(),
  lastUpdated: string(),
  dataLastReceived: string().default(''),
  /** The agbot's owner (`org/username`, never changes): what `/agreements/confirm` matches. */
  owner: string(),
});

/**
 * An agbot's agreement: `AGBOT#<org>/<id>` / `AGREEMENT#<agreementId>`, in its agbot's partition.
 * gsi1 finds it by its id alone (`AGREEMENT#<agreementId>` / `<org>/<agbot id>`) for confirm.
 */
export const AgbotAgreementEntity = new Entity({
  name: 'agbotAgreement',
  table: ExchangeTable,
  timestamps: false,
  schema: agreementSchema.and((prev) => ({
    gsi1pk: string()
      .hidden()
      .link<typeof prev>(({ agreementId }) => agbotKeys.agreementByIdIndex(agreementId)),
    gsi1sk: string()
      .hidden()
      .link<typeof prev>(({ org, agbot }) => `${org}/${agbot}`),
  })),
  computeKey: ({ org, agbot, agreementId }: { org: string; agbot: string; agreementId: string }) =>
    agbotKeys.agreement(org, agbot, agreementId),
});
