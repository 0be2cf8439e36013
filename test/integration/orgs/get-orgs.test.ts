import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getOrgs } from '#functions/orgs/get-orgs';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
let hub: Auth;
let admin: Auth;
let user: Auth;
let node: Auth;
let agbot: Auth;

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('acme-labs');
  await createOrg('zeta');
  hub = await createUser('root', 'hub', { hubAdmin: true });
  admin = await createUser('acme', 'boss', { admin: true });
  user = await createUser('acme', 'alice');
  node = await createNode('acme', 'n1', 'acme/alice');
  agbot = await createAgbot('acme', 'a1', 'acme/alice');
});

const ids = (body: { orgs: Record<string, unknown> }) => Object.keys(body.orgs);

describe('GET /v1/orgs', () => {
  it('shows root and hub admins every org, sorted by id', async () => {
    for (const auth of [ROOT, hub]) {
      const result = await invoke(getOrgs, { auth });
      expect(result.status).toBe(200);
      expect(ids(result.body)).toEqual(['IBM', 'acme', 'acme-labs', 'root', 'zeta']);
      expect(result.body.lastIndex).toBe(0);
      expect(result.body.orgs.acme).toMatchObject({
        orgType: '',
        label: 'acme label',
        description: 'acme description',
        tags: null,
        limits: { maxNodes: 0 },
        heartbeatIntervals: { minInterval: 0, maxInterval: 0, intervalAdjustment: 0 },
      });
    }
  });

  it('shows org admins and users their own org and IBM, nodes and agbots only their own', async () => {
    for (const auth of [admin, user])
      expect(ids((await invoke(getOrgs, { auth })).body)).toEqual(['IBM', 'acme']);
    for (const auth of [node, agbot]) expect(ids((await invoke(getOrgs, { auth })).body)).toEqual(['acme']);
  });

  it('filters by organization, label and description, with % as a wildcard', async () => {
    expect(ids((await invoke(getOrgs, { auth: ROOT, query: { organization: 'acme%' } })).body)).toEqual([
      'acme',
      'acme-labs',
    ]);
    expect(ids((await invoke(getOrgs, { auth: ROOT, query: { organization: 'acme' } })).body)).toEqual([
      'acme',
    ]);
    expect(ids((await invoke(getOrgs, { auth: ROOT, query: { label: '%labs lab%' } })).body)).toEqual([
      'acme-labs',
    ]);
    expect(
      ids((await invoke(getOrgs, { auth: ROOT, query: { description: 'zeta description' } })).body),
    ).toEqual(['zeta']);
    // The wildcard only applies when the value contains %: otherwise the match is exact.
    const exact = await invoke(getOrgs, { auth: ROOT, query: { label: 'acme' } });
    expect(exact.status).toBe(404);
    expect(exact.body).toEqual({ orgs: {}, lastIndex: 0 });
  });

  it('accepts orgtype IBM (selecting the IBM org) and rejects any other value', async () => {
    expect(ids((await invoke(getOrgs, { auth: user, query: { orgtype: 'IBM' } })).body)).toEqual(['IBM']);
    const bad = await invoke(getOrgs, { auth: ROOT, query: { orgtype: 'other' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ code: 'invalid-input', msg: "orgType must be 'IBM' or blank" });
  });

  it('answers 404 with the empty map when nothing matches, 401 without valid credentials', async () => {
    const none = await invoke(getOrgs, { auth: node, query: { organization: 'zeta' } });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ orgs: {}, lastIndex: 0 });
    expect((await invoke(getOrgs)).status).toBe(401);
    expect((await invoke(getOrgs, { auth: { ...user, secret: 'wrong' } })).status).toBe(401);
  });
});
