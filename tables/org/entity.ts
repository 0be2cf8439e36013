import { Entity, EntityRepository, item, map, number, record, string } from 'dynamodb-toolbox';
import { orgKeys } from '../keys/org.ts';
import { ExchangeTable } from '../table.ts';

const heartbeatIntervals = map({
  minInterval: number().default(0),
  maxInterval: number().default(0),
  intervalAdjustment: number().default(0),
}).default({ minInterval: 0, maxInterval: 0, intervalAdjustment: 0 });

const orgSchema = item({
  org: string().key(),
  orgType: string().default(''),
  label: string(),
  description: string(),
  lastUpdated: string(),
  tags: record(string(), string()).optional(),
  limits: map({ maxNodes: number().default(0) }).default({ maxNodes: 0 }),
  heartbeatIntervals,
});

/** An organization: `ORG#<org>` / `ORG`, listed through gsi1 `ORGS`. */
export const OrgEntity = new Entity({
  name: 'org',
  table: ExchangeTable,
  timestamps: false,
  schema: orgSchema.and((prev) => ({
    gsi1pk: string()
      .hidden()
      .link<typeof prev>(() => orgKeys.allIndex),
    gsi1sk: string()
      .hidden()
      .link<typeof prev>(({ org }) => org),
  })),
  computeKey: ({ org }: { org: string }) => orgKeys.record(org),
});

export const orgRepository = OrgEntity.build(EntityRepository);
