import { PutTransaction } from 'dynamodb-toolbox';
import { hashSecret } from '#lib/auth/secrets';
import { ownedEntry, principalSet } from '#tables/identity/records';
import { transactWrite } from '#tables/kernel/transact';
import { NodeEntity } from '#tables/node/entity';
import { orgCounterUpdate, userCounterUpdate } from '#tables/org/stats';

/** A node with a public key (so it counts as registered), written with its counters like a real PUT. */
export async function createRegisteredNode(org: string, id: string, owner: string) {
  const token = `${id}-token`;
  const [ownerOrg = org, ownerName = ''] = owner.split('/');
  const deltas = { nodes: 1, registeredNodes: 1 };
  const tokenHash = await hashSecret(token);
  await transactWrite([
    NodeEntity.build(PutTransaction)
      .item({
        org,
        id,
        owner,
        name: id,
        publicKey: 'PUBLIC-KEY',
        tokenHash,
        lastUpdated: new Date().toISOString(),
      })
      .params(),
    orgCounterUpdate(org, { deltas }),
    userCounterUpdate(ownerOrg, ownerName, { deltas }),
    principalSet(org, id, 'node', ownedEntry({ tokenHash, owner })),
  ]);
  return { user: `${org}/${id}`, secret: token };
}
