import { expect, it } from 'vitest';
import { handler as postService } from '#functions/services/post-service';
import { createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { changeRows, partitionKeys, serviceBody } from './support.ts';

useTestTable();

it('20 concurrent creates of one service: one 201, nineteen clean 403 already-exists, one change row', async () => {
  await createOrg('race');
  const users = await Promise.all(Array.from({ length: 20 }, (_, i) => createUser('race', `u${i}`)));
  const results = await Promise.all(
    users.map((auth) =>
      invoke(postService, { auth, path: { organization: 'race' }, body: serviceBody('raced') }),
    ),
  );
  const statuses = results.map((r) => r.status).sort();
  expect(statuses).toEqual([201, ...Array(19).fill(403)]);
  for (const refused of results.filter((r) => r.status === 403)) {
    expect(refused.body).toEqual({
      code: 'already-exists',
      msg: "service 'race/raced_1.0.0_amd64' already exists",
    });
  }
  expect((await changeRows('race')).filter((row) => row.resource === 'service')).toHaveLength(1);
  // Exactly one owner holds the link and a count of one.
  const owners = await Promise.all(users.map((auth) => partitionKeys(`USER#${auth.user}`)));
  const linked = owners.filter((sks) => sks.includes('OWNS#SERVICE#race/raced_1.0.0_amd64'));
  expect(linked).toHaveLength(1);
  // Refused creates wrote nothing: only the winner has a count item.
  expect(owners.filter((sks) => sks.includes('SERVICECOUNT'))).toHaveLength(1);
});
