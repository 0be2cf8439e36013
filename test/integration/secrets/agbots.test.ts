import { beforeAll, describe, expect, it } from 'vitest';
import { handler as postChanges } from '#functions/changes/post-changes';
import { createAgbot, createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { type Auth, call, serveOrg, servePatterns, useTempMasterKey } from './support.ts';

useTestTable();
useTempMasterKey();

/** Agbots (our addition, for delivery): those serving a policy or pattern of the org read its secrets. */
let admin: Auth;
let alice: Auth;
let byPolicy: Auth;
let byPattern: Auth;
let multiTenant: Auth;
let idle: Auth;
let elsewhere: Auth;
beforeAll(async () => {
  await Promise.all([createOrg('ag'), createOrg('ag2')]);
  admin = await createUser('ag', 'boss', { admin: true });
  alice = await createUser('ag', 'alice');
  byPolicy = await createAgbot('ag', 'pol', 'ag/boss');
  byPattern = await createAgbot('ag', 'pat', 'ag/boss');
  idle = await createAgbot('ag', 'idle', 'ag/boss');
  multiTenant = await createAgbot('IBM', 'mt', 'root/root');
  elsewhere = await createAgbot('ag2', 'other', 'ag2/boss');
  await serveOrg('ag', 'pol', 'ag');
  await servePatterns('ag', 'pat', 'ag');
  await serveOrg('IBM', 'mt', 'ag');
  await serveOrg('ag2', 'other', 'ag2');
  await call('PUT', '/orgs/ag/secrets/db', admin, { key: 'k', value: 'org-value' });
  await call('PUT', '/orgs/ag/secrets/user/alice/x', alice, { key: 'k', value: 'alice-value' });
});

describe('agbots and secrets', () => {
  it.each([
    ['serving a deployment policy of the org', () => byPolicy],
    ['serving a pattern of the org', () => byPattern],
    ['multi-tenant (IBM), serving the org', () => multiTenant],
  ])('an agbot %s lists (with lastUpdated) and reads every secret, writes none', async (_, who) => {
    const agbot = who();
    expect((await call('GET', '/orgs/ag/secrets/db', agbot)).body).toEqual({ key: 'k', value: 'org-value' });
    expect((await call('GET', '/orgs/ag/secrets/user/alice/x', agbot)).body.value).toBe('alice-value');
    const all = await call('GET', '/orgs/ag/allsecrets', agbot, undefined, { details: 'true' });
    expect(all.body).toEqual(
      expect.arrayContaining([
        { name: 'db', lastUpdated: expect.any(String) },
        { name: 'user/alice/x', lastUpdated: expect.any(String) },
      ]),
    );
    expect((await call('PUT', '/orgs/ag/secrets/db', agbot, { key: 'k', value: 'x' })).status).toBe(403);
    expect((await call('DELETE', '/orgs/ag/secrets/db', agbot)).status).toBe(403);
  });

  it.each([
    ['of the org serving nothing', () => idle],
    ['of another org serving only its own', () => elsewhere],
  ])('an agbot %s gets 403 everywhere', async (_, who) => {
    const agbot = who();
    expect((await call('GET', '/orgs/ag/secrets/db', agbot)).status).toBe(403);
    expect((await call('GET', '/orgs/ag/secrets', agbot)).status).toBe(403);
    expect((await call('GET', '/orgs/ag/allsecrets', agbot)).status).toBe(403);
  });
});

describe('the change feed', () => {
  it('shows an agbot of the org each secret write as a `secret` row named after it, never its value', async () => {
    await call('PUT', '/orgs/ag/secrets/feed/me', admin, { key: 'k', value: 'FEED-VALUE-MARKER' });
    await call('DELETE', '/orgs/ag/secrets/feed/me', admin);
    const answer = await invoke(postChanges, {
      auth: byPolicy,
      path: { organization: 'ag' },
      body: { changeId: 0, maxRecords: 1000 },
    });
    // POST /changes answers 201, as upstream.
    expect(answer.status).toBe(201);
    const entry = answer.body.changes.find(
      (change: { resource: string; id: string }) => change.resource === 'secret' && change.id === 'feed/me',
    );
    expect(entry).toMatchObject({ orgId: 'ag', resource: 'secret', id: 'feed/me', operation: 'deleted' });
    expect(entry.resourceChanges).toHaveLength(2);
    expect(answer.text).not.toContain('FEED-VALUE-MARKER');
  });
});
