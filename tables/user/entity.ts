import { boolean, Entity, EntityRepository, item, string } from 'dynamodb-toolbox';
import { userKeys } from '../keys/user.ts';
import { ExchangeTable } from '../table.ts';

const userSchema = item({
  org: string().key(),
  username: string().key(),
  /** scrypt hash; absent for a user that cannot log in. */
  passwordHash: string().optional(),
  admin: boolean().default(false),
  hubAdmin: boolean().default(false),
  email: string().default(''),
  lastUpdated: string(),
  updatedBy: string().default(''),
});

/** A user: `USER#<org>/<username>` / `USER`, listed through gsi1 `ORG#<org>#USERS`. */
export const UserEntity = new Entity({
  name: 'user',
  table: ExchangeTable,
  timestamps: false,
  schema: userSchema.and((prev) => ({
    gsi1pk: string()
      .hidden()
      .link<typeof prev>(({ org }) => userKeys.orgIndex(org)),
    gsi1sk: string()
      .hidden()
      .link<typeof prev>(({ username }) => username),
  })),
  computeKey: ({ org, username }: { org: string; username: string }) => userKeys.record(org, username),
});

export const userRepository = UserEntity.build(EntityRepository);
