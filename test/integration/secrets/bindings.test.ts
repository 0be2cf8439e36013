import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getPolicy } from '#functions/deployment-policies/get-policy';
import { handler as patchPolicy } from '#functions/deployment-policies/patch-policy';
import { handler as postPolicy } from '#functions/deployment-policies/post-policy';
import { handler as putPolicy } from '#functions/deployment-policies/put-policy';
import { handler as getPattern } from '#functions/patterns/get-pattern';
import { handler as patchPattern } from '#functions/patterns/patch-pattern';
import { handler as postPattern } from '#functions/patterns/post-pattern';
import { handler as putPattern } from '#functions/patterns/put-pattern';
import { seedService } from '#test/support/catalog';
import { createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

/**
 * Who may bind which secret (README "Secrets"), on every write of deployment policies and
 * patterns: org secrets, any writer; `user/<u>/…`, user u only; node secrets, whoever may read
 * them directly (an org admin for `node/<n>/…`, the user for `user/<u>/node/<n>/…`).
 */
type Auth = { user: string; secret: string };
const who = {} as Record<'admin' | 'alice', Auth>;
const binding = (name: string) => [{ serviceOrgid: 'bsvc', serviceUrl: 'web', secrets: [{ s: name }] }];
const policy = (name: string) => ({
  label: 'p',
  service: { name: 'web', org: 'bsvc', arch: 'amd64', serviceVersions: [{ version: '1.0.0' }] },
  secretBinding: binding(name),
});
const pattern = (name: string) => ({
  label: 'p',
  services: [
    {
      serviceUrl: 'web',
      serviceOrgid: 'bsvc',
      serviceArch: 'amd64',
      serviceVersions: [{ version: '1.0.0' }],
    },
  ],
  secretBinding: binding(name),
});
let serial = 0;
const fresh = () => `b${++serial}`;

beforeAll(async () => {
  await Promise.all([createOrg('borg'), createOrg('bsvc')]);
  await seedService('bsvc', { url: 'web', version: '1.0.0', arch: 'amd64', public: true });
  who.admin = await createUser('borg', 'admin', { admin: true });
  who.alice = await createUser('borg', 'alice');
});

const refused = "which '";
const cases: [string, keyof typeof who | 'root', string, boolean][] = [
  ['an org secret, by a plain user', 'alice', 'db', true],
  ['an org secret with a leading slash', 'alice', '/db', true],
  ['their own user secret', 'alice', 'user/alice/x', true],
  ['their own user node secret', 'alice', 'user/alice/node/n1/x', true],
  ['another user`s secret', 'alice', 'user/bob/aws', false],
  ['another user`s secret with a leading slash', 'alice', '/user/bob/aws', false],
  ['another user`s node secret', 'alice', 'user/bob/node/n1/x', false],
  ['a node secret, by a plain user', 'alice', 'node/n2/k', false],
  ['a node secret, by an org admin', 'admin', 'node/n2/k', true],
  ['a user`s secret, by an org admin', 'admin', 'user/alice/x', false],
  ['an org secret, by root', 'root', 'db', true],
  ['a node secret, by root', 'root', 'node/n2/k', false],
  ['a user secret, by root', 'root', 'user/alice/x', false],
  ['a malformed name', 'alice', 'a//b', false],
];
const auth = (name: keyof typeof who | 'root') => (name === 'root' ? ROOT : who[name]);

describe.each([
  ['deployment policy', postPolicy, getPolicy, policy, 'policy'],
  ['pattern', postPattern, getPattern, pattern, 'pattern'],
] as const)('a %s binding', (_, post, get, body, key) => {
  it.each(cases)('%s (%s binds %s): allowed %s', async (_case, writer, name, allowed) => {
    const id = fresh();
    const path = { organization: 'borg', [key]: id };
    const answer = await invoke(post, { auth: auth(writer), path, body: body(name) });
    if (allowed) {
      expect(answer.status).toBe(201);
      return;
    }
    expect(answer.status).toBe(400);
    expect(answer.body.msg).toContain(`binds secret '${name}', ${refused}`);
    // A refused write stores nothing.
    expect((await invoke(get, { auth: ROOT, path })).status).toBe(404);
  });
});

describe('an update is checked against the writer and the owner', () => {
  it('an org admin cannot add a node secret to a plain user`s policy (PUT or PATCH), the owner cannot either', async () => {
    const path = { organization: 'borg', policy: fresh() };
    expect((await invoke(postPolicy, { auth: who.alice, path, body: policy('db') })).status).toBe(201);
    const put = await invoke(putPolicy, { auth: who.admin, path, body: policy('node/n2/k') });
    expect(put.status).toBe(400);
    expect(put.body.msg).toContain("which 'borg/alice' may not bind");
    const patch = await invoke(patchPolicy, {
      auth: who.alice,
      path,
      body: { secretBinding: binding('node/n2/k') },
    });
    expect(patch.status).toBe(400);
    const kept = await invoke(getPolicy, { auth: ROOT, path });
    expect(JSON.stringify(kept.body)).toContain('"s":"db"');
    expect((await invoke(patchPolicy, { auth: who.alice, path, body: { label: 'other' } })).status).toBe(201);
  });

  it('a pattern PUT makes the writer its owner (as upstream), so the writer alone must be entitled', async () => {
    const path = { organization: 'borg', pattern: fresh() };
    expect((await invoke(postPattern, { auth: who.alice, path, body: pattern('user/alice/x') })).status).toBe(
      201,
    );
    expect((await invoke(putPattern, { auth: who.admin, path, body: pattern('user/alice/x') })).status).toBe(
      400,
    );
    expect((await invoke(putPattern, { auth: who.admin, path, body: pattern('node/n1/k') })).status).toBe(
      201,
    );
    const patch = await invoke(patchPattern, {
      auth: who.admin,
      path,
      body: { secretBinding: binding('user/alice/x') },
    });
    expect(patch.status).toBe(400);
  });
});
