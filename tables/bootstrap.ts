import { PutTransaction } from 'dynamodb-toolbox';
import { isoTimestamp } from '#lib/time';
import { principalSet, userEntry } from './identity/records.ts';
import { TransactionFailed, transactWrite } from './kernel/transact.ts';
import { OrgEntity } from './org/entity.ts';
import { orgCounterUpdate } from './org/stats.ts';
import { UserEntity } from './user/entity.ts';

/**
 * What must exist for the Exchange to work: org `root`, org `IBM` (home of multi-tenant agbots and
 * agent file versions) and the user record of `root/root`. Idempotent: each record is created
 * only if missing, so a restart never overwrites what an admin changed.
 */
export async function bootstrap(): Promise<void> {
  const now = isoTimestamp();
  const orgs = [
    { org: 'root', label: 'Root Org', description: 'Organization for the root user', orgType: '' },
    { org: 'IBM', label: 'IBM Org', description: 'Organization containing IBM services', orgType: 'IBM' },
  ];
  for (const org of orgs) {
    await createOnce([
      OrgEntity.build(PutTransaction)
        .item({ ...org, lastUpdated: now })
        .options({ condition: { attr: 'org', exists: false } })
        .params(),
      orgCounterUpdate(org.org, { deltas: {} }),
    ]);
  }
  // Root authenticates against EXCHANGE_ROOT_PW; this record makes it visible like any user. Its
  // principal entry (no password) is never read, but keeps "every user has one" true.
  const root = { org: 'root', username: 'root', admin: true, hubAdmin: true };
  await createOnce([
    UserEntity.build(PutTransaction)
      .item({ ...root, email: '', lastUpdated: now })
      .options({ condition: { attr: 'org', exists: false } })
      .params(),
    orgCounterUpdate('root', { deltas: { users: 1 } }),
    principalSet('root', 'root', 'user', userEntry(root)),
  ]);
}

async function createOnce(items: Parameters<typeof transactWrite>[0]): Promise<void> {
  try {
    await transactWrite(items);
  } catch (error) {
    if (!(error instanceof TransactionFailed)) throw error;
  }
}
