import { Entity, item, list, map, string } from 'dynamodb-toolbox';
import { agbotKeys } from '../keys/agbot.ts';
import { nodeKeys } from '../keys/node.ts';
import { ExchangeTable } from '../table.ts';

const agreementSchema = item({
  org: string().key(),
  /** The node's id within `org`. */
  node: string().key(),
  agreementId: string().key(),
  /** What the agreement covers (`[]` when the PUT named none). */
  services: list(map({ orgid: string(), url: string() })).default([]),
  /** The agreement's service: `url` is `<svcOrg>/<svcUrl>`, what searches compare ("" when not given). */
  agrService: map({ orgid: string(), pattern: string(), url: string() }),
  state: string(),
  lastUpdated: string(),
});

/**
 * A node's agreement: `NODE#<org>/<id>` / `AGREEMENT#<agreementId>`, in its node's partition so
 * deleting the node takes it. gsi1 finds it by its id alone (`AGREEMENT#<agreementId>` /
 * `NODE#<org>/<id>`), the partition agbot agreements use too.
 */
export const NodeAgreementEntity = new Entity({
  name: 'nodeAgreement',
  table: ExchangeTable,
  timestamps: false,
  schema: agreementSchema.and((prev) => ({
    gsi1pk: string()
      .hidden()
      .link<typeof prev>(({ agreementId }) => agbotKeys.agreementByIdIndex(agreementId)),
    gsi1sk: string()
      .hidden()
      .link<typeof prev>(({ org, node }) => `NODE#${org}/${node}`),
  })),
  computeKey: ({ org, node, agreementId }: { org: string; node: string; agreementId: string }) =>
    nodeKeys.agreement(org, node, agreementId),
});
