import { describe, expect, it } from 'vitest';
import { handler as version } from '#functions/admin/version';
import { handler as getOrg } from '#functions/orgs/get-org';
import { createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

describe('GET /v1/orgs/{organization}', () => {
  it('returns the org to root and 404 with the empty map when absent', async () => {
    await createOrg('acme');
    const found = await invoke(getOrg, { auth: ROOT, path: { organization: 'acme' } });
    expect(found.status).toBe(200);
    expect(found.body.orgs.acme).toMatchObject({ label: 'acme label', limits: { maxNodes: 0 }, tags: null });
    const missing = await invoke(getOrg, { auth: ROOT, path: { organization: 'nope' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ orgs: {}, lastIndex: 0 });
  });

  it('denies a user of another org and answers 401 for a wrong password', async () => {
    await createOrg('other');
    const user = await createUser('other', 'bob');
    const denied = await invoke(getOrg, { auth: user, path: { organization: 'acme' } });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('access-denied');
    const wrong = await invoke(getOrg, {
      auth: { ...user, secret: 'nope' },
      path: { organization: 'other' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ code: 'invalid-credentials', msg: 'invalid.credentials' });
  });

  it('returns one attribute as a string; 400 for an unknown name, 404 for a missing org', async () => {
    const label = await invoke(getOrg, {
      auth: ROOT,
      path: { organization: 'acme' },
      query: { attribute: 'label' },
    });
    expect(label.body).toEqual({ attribute: 'label', value: 'acme label' });
    const limits = await invoke(getOrg, {
      auth: ROOT,
      path: { organization: 'acme' },
      query: { attribute: 'limits' },
    });
    expect(limits.body).toEqual({ attribute: 'limits', value: '{"maxNodes":0}' });
    const bad = await invoke(getOrg, {
      auth: ROOT,
      path: { organization: 'nope' },
      query: { attribute: 'Label' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe("Org attribute name 'Label' is not an attribute of the org resource.");
    const missing = await invoke(getOrg, {
      auth: ROOT,
      path: { organization: 'nope' },
      query: { attribute: 'label' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'not-found', msg: "org 'nope' not found" });
  });

  it('answers the version as plain text without credentials', async () => {
    const result = await invoke(version);
    expect(result.status).toBe(200);
    expect(result.text).toBe('2.154.0\n');
  });
});
