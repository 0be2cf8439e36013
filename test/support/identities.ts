import { PutTransaction } from 'dynamodb-toolbox';
import { hashSecret } from '#lib/auth/secrets';
import { AgbotEntity } from '#tables/agbot/entity';
import { nodeEntry, ownedEntry, principalSet, userEntry } from '#tables/identity/records';
import { transactWrite } from '#tables/kernel/transact';
import { NodeEntity } from '#tables/node/entity';
import { OrgEntity } from '#tables/org/entity';
import { orgCounterUpdate, userCounterUpdate } from '#tables/org/stats';
import { UserEntity } from '#tables/user/entity';

/**
 * Test fixtures written straight to the table (through the same entities the handlers use, with
 * the principal entry authentication reads), so a test of one endpoint does not depend on the
 * others working.
 */
export const ROOT = { user: 'root/root', secret: process.env.EXCHANGE_ROOT_PW ?? 'root-test-password' };
const now = () => new Date().toISOString();

export async function createOrg(org: string, extra: Partial<{ orgType: string; maxNodes: number }> = {}) {
  await transactWrite([
    OrgEntity.build(PutTransaction)
      .item({
        org,
        label: `${org} label`,
        description: `${org} description`,
        orgType: extra.orgType ?? '',
        limits: { maxNodes: extra.maxNodes ?? 0 },
        lastUpdated: now(),
      })
      .params(),
    orgCounterUpdate(org, { deltas: {} }),
  ]);
}

export async function createUser(
  org: string,
  username: string,
  options: { password?: string; admin?: boolean; hubAdmin?: boolean; email?: string } = {},
) {
  const password = options.password ?? `${username}-pw`;
  const fields = {
    passwordHash: await hashSecret(password),
    admin: options.admin ?? false,
    hubAdmin: options.hubAdmin ?? false,
  };
  await transactWrite([
    UserEntity.build(PutTransaction)
      .item({
        org,
        username,
        ...fields,
        email: options.email ?? `${username}@example.com`,
        lastUpdated: now(),
      })
      .params(),
    orgCounterUpdate(org, { deltas: { users: 1, adminUsers: options.admin || options.hubAdmin ? 1 : 0 } }),
    principalSet(org, username, 'user', userEntry(fields)),
  ]);
  return { user: `${org}/${username}`, secret: password };
}

export async function createNode(
  org: string,
  id: string,
  owner: string,
  options: { token?: string; publicKey?: string } = {},
) {
  const token = options.token ?? `${id}-token`;
  const [ownerOrg = org, ownerName = ''] = owner.split('/');
  const tokenHash = await hashSecret(token);
  const publicKey = options.publicKey ?? '';
  await transactWrite([
    NodeEntity.build(PutTransaction)
      .item({ org, id, owner, name: id, tokenHash, publicKey, lastUpdated: now() })
      .params(),
    orgCounterUpdate(org, { deltas: { nodes: 1 } }),
    userCounterUpdate(ownerOrg, ownerName, { deltas: { nodes: 1 } }),
    principalSet(org, id, 'node', nodeEntry({ tokenHash, owner, publicKey })),
  ]);
  return { user: `${org}/${id}`, secret: token };
}

export async function createAgbot(org: string, id: string, owner: string, options: { token?: string } = {}) {
  const token = options.token ?? `${id}-token`;
  const [ownerOrg = org, ownerName = ''] = owner.split('/');
  const tokenHash = await hashSecret(token);
  await transactWrite([
    AgbotEntity.build(PutTransaction)
      .item({ org, id, owner, name: id, tokenHash, lastHeartbeat: now() })
      .params(),
    orgCounterUpdate(org, { deltas: { agbots: 1 } }),
    userCounterUpdate(ownerOrg, ownerName, { deltas: { agbots: 1 } }),
    principalSet(org, id, 'agbot', ownedEntry({ tokenHash, owner })),
  ]);
  return { user: `${org}/${id}`, secret: token };
}
