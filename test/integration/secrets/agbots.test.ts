import { beforeAll, describe, expect, it } from 'vitest';
import { handler as servePattern } from '#functions/agbot-patterns/post-pattern';
import { handler as servePolicy } from '#functions/agbot-policies/post-policy';
import { handler as putAgbot } from '#functions/agbots/put-agbot';
import { handler as postChanges } from '#functions/changes/post-changes';
import { handler as postPolicy } from '#functions/deployment-policies/post-policy';
import { dynamoCallCount } from '#tables/client';
import { seedDeploymentPolicy, seedPattern, seedService } from '#test/support/catalog';
import { createAgbot, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { type Auth, call, serveOrg, servePatterns, useTempMasterKey } from './support.ts';

useTestTable();
useTempMasterKey();

/**
 * The secrets rule (README "Secrets") read through agbots: an agbot receives a value only for a
 * deployment policy or pattern it serves, that binds the name, whose owner may bind it, and only
 * when the agbot itself may deliver secrets (multi-tenant, made by root or a hub admin; or owned
 * by an admin of the org). Every row would have answered the value before this rule.
 */
type Who =
  | 'boss'
  | 'alice'
  | 'bob'
  | 'mallory'
  | 'hub'
  | 'ibmUser'
  | 'ibmAdmin'
  | 'adminBot'
  | 'plainBot'
  | 'evil'
  | 'legacyMt'
  | 'mt';
const who = {} as Record<Who, Auth>;
const binding = (secrets: Record<string, string>, enableNodeLevelSecrets = false) => [
  { serviceOrgid: 'svc', serviceUrl: 'web', enableNodeLevelSecrets, secrets: [secrets] },
];
const policyBody = (secretBinding: unknown) => ({
  label: 'p',
  service: { name: 'web', org: 'svc', arch: 'amd64', serviceVersions: [{ version: '1.0.0' }] },
  secretBinding,
});
const read = (agbot: Auth, name: string, query?: Record<string, string>) =>
  call('GET', `/orgs/sa/secrets/${name}`, agbot, undefined, query);

beforeAll(async () => {
  await Promise.all([createOrg('sa'), createOrg('sb'), createOrg('svc')]);
  await seedService('svc', { url: 'web', version: '1.0.0', arch: 'amd64', public: true });
  who.boss = await createUser('sa', 'boss', { admin: true });
  who.alice = await createUser('sa', 'alice');
  who.bob = await createUser('sa', 'bob');
  who.mallory = await createUser('sb', 'mallory');
  who.hub = await createUser('root', 'hub', { hubAdmin: true });
  who.ibmUser = await createUser('IBM', 'ibmuser');
  who.ibmAdmin = await createUser('IBM', 'ibmadmin', { admin: true });
  const secrets: [string, Auth][] = [
    ['db', who.boss],
    ['greeting', who.boss],
    ['node/n1/greeting', who.boss],
    ['node/n1/k', who.boss],
    ['node/n2/k', who.boss],
    ['user/bob/aws', who.bob],
    ['user/alice/x', who.alice],
    ['user/alice/node/n1/y', who.alice],
  ];
  for (const [name, owner] of secrets)
    expect(
      (await call('PUT', `/orgs/sa/secrets/${name}`, owner, { key: 'k', value: `v:${name}` })).status,
    ).toBe(201);

  const create = (auth: Auth, policy: string, secretBinding: unknown) =>
    invoke(postPolicy, { auth, path: { organization: 'sa', policy }, body: policyBody(secretBinding) });
  expect(
    (await create(who.boss, 'adminpol', binding({ a: 'db', b: 'node/n1/k', g: 'greeting' }, true))).status,
  ).toBe(201);
  expect(
    (
      await create(
        who.alice,
        'alicepol',
        binding({ x: 'user/alice/x', y: 'user/alice/node/n1/y', g: 'greeting' }),
      )
    ).status,
  ).toBe(201);
  // Written before the rule existed (straight to the table): alice bound bob's secret.
  await seedDeploymentPolicy('sa', 'legacypol', {
    owner: 'sa/alice',
    secretBinding: binding({ s: 'user/bob/aws', n: 'node/n2/k' }),
  });

  who.adminBot = await createAgbot('sa', 'adminbot', 'sa/boss');
  who.plainBot = await createAgbot('sa', 'plainbot', 'sa/alice');
  who.evil = await createAgbot('sb', 'evil', 'sb/mallory');
  who.legacyMt = await createAgbot('IBM', 'legacy', 'IBM/ibmuser');
  const put = await invoke(putAgbot, {
    auth: who.hub,
    path: { organization: 'IBM', agreementbot: 'mt' },
    body: { token: 'mt-token', name: 'mt', publicKey: '' },
  });
  expect(put.status).toBe(200);
  who.mt = { user: 'IBM/mt', secret: 'mt-token' };
  await serveOrg('sa', 'adminbot', 'sa');
  await servePatterns('sa', 'adminbot', 'sa');
  await serveOrg('sa', 'plainbot', 'sa');
  await serveOrg('IBM', 'mt', 'sa');
  // Declarations no request may make any more (the write tests below show they are refused):
  await serveOrg('sb', 'evil', 'sa');
  await serveOrg('IBM', 'legacy', 'sa');
});

describe('an agbot reads a secret value only to deliver a binding it is entitled to', () => {
  it.each([
    ['adminpol', 'db'],
    ['adminpol', 'node/n1/k'],
    ['adminpol', 'greeting'],
    ['adminpol', 'node/n1/greeting'], // the node-level name of `greeting` (enableNodeLevelSecrets)
    ['alicepol', 'user/alice/x'],
    ['alicepol', 'user/alice/node/n1/y'],
  ])('the admin-owned agbot of the org reads %s → %s', async (policy, name) => {
    const answer = await read(who.adminBot, name, { policy });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ key: 'k', value: `v:${name}` });
  });

  it('a multi-tenant agbot made by a hub admin reads what a served policy binds, and nothing else', async () => {
    expect((await read(who.mt, 'db', { policy: 'adminpol' })).body.value).toBe('v:db');
    expect((await read(who.mt, 'user/bob/aws', { policy: 'adminpol' })).status).toBe(403);
    expect((await read(who.mt, 'db', { policy: 'nosuchpol' })).status).toBe(403);
  });

  it.each([
    ['a name the policy does not bind', 'adminpol', 'user/bob/aws', 'does not bind it'],
    ['another policy`s name', 'adminpol', 'user/alice/x', 'does not bind it'],
    [
      'another node`s name derived from an org-level binding',
      'alicepol',
      'node/n1/greeting',
      'does not bind it',
    ],
    [
      'a user secret its owner did not bind (written before the rule)',
      'legacypol',
      'user/bob/aws',
      'may not bind',
    ],
    ['a node secret a plain owner bound (written before the rule)', 'legacypol', 'node/n2/k', 'may not bind'],
  ])('even the admin-owned agbot gets 403 for %s', async (_, policy, name, why) => {
    const answer = await read(who.adminBot, name, { policy });
    expect(answer.status).toBe(403);
    expect(answer.body.msg).toContain(why);
    expect(answer.text).not.toContain('v:');
  });

  it.each([
    ['a plain user`s agbot of the org', 'plainBot', 'only multi-tenant agbots and agbots owned by an admin'],
    [
      'another org`s agbot declaring the org (a declaration written before the rule)',
      'evil',
      'owned by an admin',
    ],
    ['a multi-tenant agbot made by a plain IBM user (before the rule)', 'legacyMt', 'owned by an admin'],
  ])('%s reads nothing', async (_, agbot, why) => {
    for (const [policy, name] of [
      ['adminpol', 'db'],
      ['alicepol', 'user/alice/x'],
    ] as const) {
      const answer = await read(who[agbot as Who], name, { policy });
      expect(answer.status).toBe(403);
      expect(answer.body.msg).toContain(why);
    }
  });

  it('a delivery read costs at most 6 GetItems (warm identity): rights, declarations, the binding, the value', async () => {
    await read(who.adminBot, 'db', { policy: 'adminpol' });
    const before = dynamoCallCount();
    expect((await read(who.adminBot, 'db', { policy: 'adminpol' })).status).toBe(200);
    // The agbot's owner, the two possible declarations (by name, `*`), the policy, its owner, the secret.
    expect(dynamoCallCount() - before).toBe(6);
  });

  it('an agbot names exactly one policy or pattern, and lists nothing', async () => {
    expect((await read(who.adminBot, 'db')).status).toBe(400);
    expect((await read(who.adminBot, 'db', { policy: 'adminpol', pattern: 'x' })).status).toBe(400);
    for (const list of ['/orgs/sa/secrets', '/orgs/sa/allsecrets', '/orgs/sa/secrets/user/alice'])
      expect((await call('GET', list, who.adminBot, undefined, { details: 'true' })).status).toBe(403);
    expect((await call('PUT', '/orgs/sa/secrets/db', who.adminBot, { key: 'k', value: 'x' })).status).toBe(
      403,
    );
    expect((await call('DELETE', '/orgs/sa/secrets/db', who.adminBot)).status).toBe(403);
  });

  it('a user`s rights are the matrix`s whatever the query says', async () => {
    expect((await read(who.alice, 'db', { policy: 'adminpol' })).status).toBe(403);
    expect((await read(who.alice, 'user/alice/x', { policy: 'adminpol' })).body.value).toBe('v:user/alice/x');
  });
});

describe('an org`s agbot serving another org`s public pattern to its own nodes (issue 32)', () => {
  // Upstream's agbot reads every bound secret in the node's org; so does ours, and the pattern's
  // owner (of another org) may bind only org-wide secrets there: no user or node secret of sa.
  const ibmBinding = binding({ g: 'greeting', u: 'user/alice/x', n: 'node/n1/k' });
  const declare = (auth: Auth, agbot: string, body: Record<string, string>) =>
    invoke(servePattern, {
      auth,
      path: { organization: agbot.split('/')[0] as string, agreementbot: agbot.split('/')[1] as string },
      body,
    });
  const forPattern = (pattern: string) => ({ pattern });

  beforeAll(async () => {
    await seedPattern('IBM', 'ibmpub', { public: true, owner: 'IBM/ibmadmin', secretBinding: ibmBinding });
    await seedPattern('IBM', 'ibmpriv', { owner: 'IBM/ibmadmin', secretBinding: ibmBinding });
    for (const [auth, agbot] of [
      [who.boss, 'sa/adminbot'],
      [who.alice, 'sa/plainbot'],
    ] as const)
      expect(
        (await declare(auth, agbot, { patternOrgid: 'IBM', pattern: '*', nodeOrgid: 'sa' })).status,
      ).toBe(201);
    await servePatterns('sb', 'evil', 'IBM');
  });

  it('delivers the node org`s org-wide secret the public pattern binds, to an agbot that may deliver secrets', async () => {
    const result = await read(who.adminBot, 'greeting', forPattern('IBM/ibmpub'));
    expect(result.status, result.text).toBe(200);
    expect(result.body).toEqual({ key: 'k', value: 'v:greeting' });
  });

  it.each([
    ['user/alice/x', 'IBM/ibmpub', 'adminBot', "the owner of pattern 'IBM/ibmpub' may not bind it"],
    ['node/n1/k', 'IBM/ibmpub', 'adminBot', "the owner of pattern 'IBM/ibmpub' may not bind it"],
    ['greeting', 'IBM/ibmpriv', 'adminBot', "does not serve pattern 'IBM/ibmpriv' to nodes of org 'sa'"],
    ['greeting', 'IBM/ibmpub', 'plainBot', 'only multi-tenant agbots and agbots owned by an admin'],
    ['greeting', 'IBM/ibmpub', 'evil', 'only multi-tenant agbots and agbots owned by an admin'],
    ['greeting', 'IBM/nosuch', 'adminBot', "does not serve pattern 'IBM/nosuch'"],
  ] as const)('refuses %s for %s to %s', async (name, pattern, agbot, why) => {
    const result = await read(who[agbot], name, forPattern(pattern));
    expect(result.status, result.text).toBe(403);
    expect(result.body.msg).toContain(why);
  });

  it('answers 400 naming the query field for a malformed pattern name', async () => {
    const result = await read(who.adminBot, 'greeting', forPattern('IBM/ibm/pub'));
    expect(result.status).toBe(400);
    expect(result.body.msg).toContain("'pattern'");
  });
});

describe('what an agbot may serve is checked when it is declared', () => {
  const declarePattern = (auth: Auth, agbot: string, body: Record<string, string>) =>
    invoke(servePattern, {
      auth,
      path: { organization: agbot.split('/')[0] as string, agreementbot: agbot.split('/')[1] as string },
      body,
    });
  const declarePolicy = (auth: Auth, agbot: string, body: Record<string, string>) =>
    invoke(servePolicy, {
      auth,
      path: { organization: agbot.split('/')[0] as string, agreementbot: agbot.split('/')[1] as string },
      body,
    });

  it('another org`s user cannot make their agbot serve this org (the leak of the issue)', async () => {
    const answer = await declarePattern(who.mallory, 'sb/evil', {
      patternOrgid: 'sa',
      pattern: 'z',
      nodeOrgid: 'sa',
    });
    expect(answer.status).toBe(403);
    expect(answer.body.msg).toContain('only multi-tenant agbots');
    const policy = await declarePolicy(who.mallory, 'sb/evil', {
      businessPolOrgid: 'sa',
      businessPol: '*',
      nodeOrgid: 'sa',
    });
    expect(policy.status).toBe(403);
  });

  it('even root cannot make an org`s agbot serve another org; a policy or pattern still to come is accepted', async () => {
    const root = await declarePolicy(ROOT, 'sa/plainbot', {
      businessPolOrgid: 'sb',
      businessPol: '*',
      nodeOrgid: 'sb',
    });
    expect(root.status).toBe(403);
    const missing = await declarePolicy(who.alice, 'sa/plainbot', {
      businessPolOrgid: 'sa',
      businessPol: 'nosuch',
    });
    expect(missing.status).toBe(201);
    const pattern = await declarePattern(who.alice, 'sa/plainbot', { patternOrgid: 'sa', pattern: 'nosuch' });
    expect(pattern.status).toBe(201);
    expect(
      (await declarePolicy(who.alice, 'sa/plainbot', { businessPolOrgid: 'sa', businessPol: 'alicepol' }))
        .status,
    ).toBe(201);
  });

  it('only root and hub admins make multi-tenant agbots and declare what they serve (and the agbot itself)', async () => {
    const body = { token: 'x-token', name: 'x', publicKey: '' };
    for (const auth of [who.ibmUser, who.ibmAdmin]) {
      const made = await invoke(putAgbot, {
        auth,
        path: { organization: 'IBM', agreementbot: 'mine' },
        body,
      });
      expect(made.status).toBe(403);
      const declared = await declarePattern(auth, 'IBM/mt', {
        patternOrgid: 'sa',
        pattern: '*',
        nodeOrgid: 'sa',
      });
      expect(declared.status).toBe(403);
    }
    expect(
      (await declarePattern(who.hub, 'IBM/mt', { patternOrgid: 'sa', pattern: '*', nodeOrgid: 'sa' })).status,
    ).toBe(201);
    expect(
      (await declarePattern(who.mt, 'IBM/mt', { patternOrgid: 'sb', pattern: '*', nodeOrgid: 'sb' })).status,
    ).toBe(201);
    // A multi-tenant agbot of a plain IBM user (made before the rule) declares nothing.
    const legacy = await declarePattern(who.legacyMt, 'IBM/legacy', { patternOrgid: 'sb', pattern: '*' });
    expect(legacy.status).toBe(403);
  });
});

describe('the change feed', () => {
  it('shows an agbot of the org each secret write as a `secret` row named after it, never its value', async () => {
    await call('PUT', '/orgs/sa/secrets/feed/me', who.boss, { key: 'k', value: 'FEED-VALUE-MARKER' });
    await call('DELETE', '/orgs/sa/secrets/feed/me', who.boss);
    const answer = await invoke(postChanges, {
      auth: who.adminBot,
      path: { organization: 'sa' },
      body: { changeId: 0, maxRecords: 1000 },
    });
    // POST /changes answers 201, as upstream.
    expect(answer.status).toBe(201);
    const entry = answer.body.changes.find(
      (change: { resource: string; id: string }) => change.resource === 'secret' && change.id === 'feed/me',
    );
    expect(entry).toMatchObject({ orgId: 'sa', resource: 'secret', id: 'feed/me', operation: 'deleted' });
    expect(entry.resourceChanges).toHaveLength(2);
    expect(answer.text).not.toContain('FEED-VALUE-MARKER');
  });
});
