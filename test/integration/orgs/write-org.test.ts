import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getOrg } from '#functions/orgs/get-org';
import { handler as patchOrg } from '#functions/orgs/patch-org';
import { handler as postOrg } from '#functions/orgs/post-org';
import { handler as putOrg } from '#functions/orgs/put-org';
import { getOrg as readOrg } from '#tables/org/records';
import { listOrgCounts } from '#tables/org/stats';
import { createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
let hub: Auth;
let admin: Auth;
let user: Auth;

beforeAll(async () => {
  await createOrg('acme');
  hub = await createUser('root', 'hub', { hubAdmin: true });
  admin = await createUser('acme', 'boss', { admin: true });
  user = await createUser('acme', 'alice');
});

const full = {
  orgType: 'cloud',
  label: 'New',
  description: 'a new org',
  tags: { cloud_id: 'abc' },
  limits: { maxNodes: 50 },
  heartbeatIntervals: { minInterval: 10, maxInterval: 120, intervalAdjustment: 10 },
};

describe('POST /v1/orgs/{organization}', () => {
  it('lets root create an org with its counters item, and answers 409 for a duplicate', async () => {
    const created = await invoke(postOrg, { auth: ROOT, path: { organization: 'neworg' }, body: full });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ code: 'ok', msg: "org 'neworg' created" });
    const read = await invoke(getOrg, { auth: ROOT, path: { organization: 'neworg' } });
    expect(read.body.orgs.neworg).toMatchObject({ ...full, lastUpdated: expect.any(String) });
    expect((await listOrgCounts()).has('neworg')).toBe(true);
    const again = await invoke(postOrg, { auth: ROOT, path: { organization: 'neworg' }, body: full });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('already-exists');
    expect(again.body.msg).toContain("org 'neworg' already exists");
  });

  it('lets a hub admin create an org; org admins and users get 403', async () => {
    const body = { label: 'Hub made', description: 'd' };
    expect((await invoke(postOrg, { auth: hub, path: { organization: 'hubmade' }, body })).status).toBe(201);
    expect((await readOrg('hubmade'))?.tags).toBeUndefined();
    for (const auth of [admin, user]) {
      const denied = await invoke(postOrg, { auth, path: { organization: 'nope' }, body });
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe('access-denied');
    }
    expect(await readOrg('nope')).toBeUndefined();
  });

  it('rejects bad bodies with 400 and writes nothing', async () => {
    const cases = [
      { body: { label: 'x' }, msg: "'description'" },
      { body: { label: 'x', description: 'y', color: 'red' }, msg: "'color'" },
      { body: { label: 1, description: 'y' }, msg: "'label'" },
      { body: { label: 'x', description: 'y', limits: { maxNodes: 'many' } }, msg: "'limits.maxNodes'" },
      { body: '{"label": ', msg: 'malformed JSON' },
    ];
    for (const { body, msg } of cases) {
      const result = await invoke(postOrg, { auth: ROOT, path: { organization: 'bad' }, body });
      expect(result.status).toBe(400);
      expect(result.body.code).toBe('invalid-input');
      expect(result.body.msg).toContain(msg);
    }
    const tooBig = await invoke(postOrg, {
      auth: ROOT,
      path: { organization: 'bad' },
      body: { label: 'x', description: 'y', limits: { maxNodes: 45001 } },
    });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.msg).toBe(
      'Org specific limits cannot be over the global exchange limit. Org limit: 45001; Exchange Limit: 45000',
    );
    expect(await readOrg('bad')).toBeUndefined();
    const longId = await invoke(postOrg, { auth: ROOT, path: { organization: 'o'.repeat(300) }, body: full });
    expect(longId.status).toBe(400);
    expect(longId.body.msg).toContain("'organization'");
  });
});

describe('PUT /v1/orgs/{organization}', () => {
  it('replaces an org, resetting omitted optional fields; 404 for a missing org', async () => {
    await createOrg('putme');
    expect((await invoke(putOrg, { auth: ROOT, path: { organization: 'putme' }, body: full })).status).toBe(
      201,
    );
    const result = await invoke(putOrg, {
      auth: ROOT,
      path: { organization: 'putme' },
      body: { label: 'L2', description: 'D2' },
    });
    expect(result.body).toEqual({ code: 'ok', msg: 'org updated' });
    const read = await invoke(getOrg, { auth: ROOT, path: { organization: 'putme' } });
    expect(read.body.orgs.putme).toMatchObject({
      orgType: '',
      label: 'L2',
      description: 'D2',
      tags: null,
      limits: { maxNodes: 0 },
      heartbeatIntervals: { minInterval: 0, maxInterval: 0, intervalAdjustment: 0 },
    });
    const missing = await invoke(putOrg, { auth: ROOT, path: { organization: 'ghost' }, body: full });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'not-found', msg: "org 'ghost' not found" });
    expect(await readOrg('ghost')).toBeUndefined();
  });

  it('lets an org admin write its org but not make it IBM; users, other orgs and hub admins on root get 403', async () => {
    const body = { label: 'mine', description: 'd' };
    expect((await invoke(putOrg, { auth: admin, path: { organization: 'acme' }, body })).status).toBe(201);
    const ibm = await invoke(putOrg, {
      auth: admin,
      path: { organization: 'acme' },
      body: { ...body, orgType: 'IBM' },
    });
    expect(ibm.status).toBe(403);
    expect(ibm.body.msg).toContain('SET_IBM_ORG_TYPE');
    expect((await invoke(putOrg, { auth: user, path: { organization: 'acme' }, body })).status).toBe(403);
    expect((await invoke(putOrg, { auth: admin, path: { organization: 'root' }, body })).status).toBe(403);
    expect((await invoke(putOrg, { auth: hub, path: { organization: 'root' }, body })).status).toBe(403);
    expect((await invoke(putOrg, { auth: hub, path: { organization: 'acme' }, body })).status).toBe(201);
  });

  it('parses the body before authorizing, as upstream', async () => {
    const result = await invoke(putOrg, { auth: user, path: { organization: 'acme' }, body: { label: 'x' } });
    expect(result.status).toBe(400);
  });
});

describe('PATCH /v1/orgs/{organization}', () => {
  it('applies only the first attribute present, in upstream order', async () => {
    await createOrg('patchme');
    const result = await invoke(patchOrg, {
      auth: ROOT,
      path: { organization: 'patchme' },
      body: { label: 'ignored', orgType: 'edge' },
    });
    expect(result.status).toBe(201);
    expect(result.body).toEqual({ code: 'ok', msg: "attribute 'orgType' of org 'patchme' updated" });
    const org = await readOrg('patchme');
    expect(org).toMatchObject({ orgType: 'edge', label: 'patchme label' });
  });

  it('sets tags (a null value drops a tag), heartbeat intervals and limits', async () => {
    const path = { organization: 'patchme' };
    await invoke(patchOrg, { auth: ROOT, path, body: { tags: { a: '1', b: null } } });
    await invoke(patchOrg, { auth: ROOT, path, body: { heartbeatIntervals: { minInterval: 5 } } });
    await invoke(patchOrg, { auth: ROOT, path, body: { limits: { maxNodes: 7 } } });
    expect(await readOrg('patchme')).toMatchObject({
      tags: { a: '1' },
      heartbeatIntervals: { minInterval: 5, maxInterval: 0, intervalAdjustment: 0 },
      limits: { maxNodes: 7 },
    });
    const attr = await invoke(getOrg, { auth: ROOT, path, query: { attribute: 'tags' } });
    expect(attr.body).toEqual({ attribute: 'tags', value: '{"a":"1"}' });
  });

  it('answers 400 for no attribute or an over-limit one, 404 for a missing org, 403 for a user', async () => {
    const none = await invoke(patchOrg, { auth: ROOT, path: { organization: 'patchme' }, body: {} });
    expect(none.body).toEqual({ code: 'invalid-input', msg: 'no valid org attribute specified' });
    const over = await invoke(patchOrg, {
      auth: ROOT,
      path: { organization: 'patchme' },
      body: { limits: { maxNodes: 50000 } },
    });
    expect(over.status).toBe(400);
    const missing = await invoke(patchOrg, {
      auth: ROOT,
      path: { organization: 'ghost' },
      body: { label: 'x' },
    });
    expect(missing.status).toBe(404);
    expect(await readOrg('ghost')).toBeUndefined();
    expect(
      (await invoke(patchOrg, { auth: user, path: { organization: 'acme' }, body: { label: 'x' } })).status,
    ).toBe(403);
  });
});
