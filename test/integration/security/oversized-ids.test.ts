import { beforeAll, describe, expect, it } from 'vitest';
import { handler as putAgreement } from '#functions/agbot-agreements/put-agreement';
import { handler as getPattern } from '#functions/agbot-patterns/get-pattern';
import { handler as postPattern } from '#functions/agbot-patterns/post-pattern';
import { handler as postPolicy } from '#functions/agbot-policies/post-policy';
import { handler as listAgbots } from '#functions/agbots/list-agbots';
import { handler as putAgbot } from '#functions/agbots/put-agbot';
import { handler as putStatus } from '#functions/node-management-status/put-management-status';
import { handler as getNode } from '#functions/nodes/get-node';
import { handler as listNodes } from '#functions/nodes/list-nodes';
import { handler as putNode } from '#functions/nodes/put-node';
import { handler as getOrgs } from '#functions/orgs/get-orgs';
import { handler as postOrg } from '#functions/orgs/post-org';
import { handler as getUser } from '#functions/users/get-user';
import { MAX_ID_BYTES, MAX_ID_LENGTH } from '#lib/ids';
import { MAX_FILTER_LENGTH } from '#lib/like';
import { dynamoCallCount } from '#tables/client';
import { seedDeploymentPolicy, seedManagementPolicy, seedPattern } from '#test/support/catalog';
import { createAgbot, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { expectSafeAnswer } from './support.ts';

useTestTable();

type Auth = { user: string; secret: string };
/** 256 characters of a 3-byte script: within the character limit, 768 bytes in a key. */
const wide = '中'.repeat(MAX_ID_LENGTH);
/** The widest id that fits: 166 × 3 bytes. */
const widest = '中'.repeat(Math.floor(MAX_ID_BYTES / 3));
let admin: Auth;

beforeAll(async () => {
  await createOrg('acme');
  admin = await createUser('acme', 'admin', { admin: true });
  await createAgbot('acme', 'a1', 'acme/admin');
});

describe('oversized ids never reach DynamoDB', () => {
  it('answers 401 invalid.credentials for a long org or id in Basic credentials, with no data call', async () => {
    const long = 'a'.repeat(3_000);
    for (const user of [
      `acme/${long}`,
      `${long}/admin`,
      `acme/${wide}`,
      `${'a'.repeat(MAX_ID_LENGTH + 1)}/x`,
    ]) {
      const before = dynamoCallCount();
      const result = await invoke(getUser, {
        auth: { user, secret: 'pw' },
        path: { organization: 'acme', username: 'admin' },
      });
      expect(dynamoCallCount()).toBe(before);
      expectSafeAnswer(result, user.slice(0, 40));
      expect(result.status).toBe(401);
      expect(result.body.msg).toBe('invalid.credentials');
    }
    // At the limit the id is looked up (and is unknown).
    const atLimit = await invoke(getUser, {
      auth: { user: `acme/${'a'.repeat(MAX_ID_LENGTH)}`, secret: 'pw' },
      path: { organization: 'acme', username: 'admin' },
    });
    expect(atLimit.status).toBe(401);
    expect(atLimit.body.msg).toBe('unauthorized');
  });

  it('answers 400 naming the path field for an id over the byte limit, on every kind of key, with no data call after auth', async () => {
    const requests: { handler: unknown; path: Record<string, string>; body?: unknown }[] = [
      { handler: getNode, path: { organization: 'acme', node: wide } },
      { handler: putNode, path: { organization: wide, node: 'n' }, body: { name: 'n' } },
      { handler: postOrg, path: { organization: wide }, body: { label: 'l', description: 'd' } },
      {
        handler: putAgbot,
        path: { organization: 'acme', agreementbot: wide },
        body: { token: 'abcdefgh1', name: 'n', publicKey: '' },
      },
      {
        handler: putStatus,
        path: { organization: 'acme', node: 'n', mgmtpolicy: wide },
        body: { agentUpgradePolicyStatus: { scheduledTime: 't' } },
      },
      {
        handler: putAgreement,
        path: { organization: 'acme', agreementbot: 'a', agreement: wide },
        body: { service: { orgid: 'o', pattern: 'p', url: 'u' }, state: 's' },
      },
      {
        handler: getPattern,
        path: { organization: 'acme', agreementbot: 'a', deploymentpattern: `${wide}_${wide}` },
      },
    ];
    for (const { handler, path, body } of requests) {
      const before = dynamoCallCount();
      const result = await invoke(handler as typeof getNode, { auth: ROOT, path, ...(body ? { body } : {}) });
      expect(dynamoCallCount(), 'root authenticates without a data call').toBe(before);
      expectSafeAnswer(result, Object.keys(path).join(','));
      expect(result.status).toBe(400);
      expect(result.body.msg).toMatch(
        /^invalid input: path field '\w+': must be at most \d+ bytes in UTF-8$/,
      );
    }
  });

  it('stores and reads the widest ids that fit, in the longest keys (owned agbot link, status, served pattern)', async () => {
    expect(
      (
        await invoke(postOrg, {
          auth: ROOT,
          path: { organization: widest },
          body: { label: 'l', description: 'd' },
        })
      ).status,
    ).toBe(201);
    const agbot = { organization: widest, agreementbot: widest };
    // The served pattern and policy must exist.
    await seedPattern(widest, widest);
    await seedDeploymentPolicy(widest, widest);
    // A node's status names its management policy.
    await seedManagementPolicy(widest, widest);
    // Root owns it from another org: the owner's link holds both ids in one sort key.
    const created = await invoke(putAgbot, {
      auth: ROOT,
      path: agbot,
      body: { token: 'abcdefgh1', name: 'n', publicKey: '' },
    });
    expect(created.status, created.text).toBe(200);
    const pattern = await invoke(postPattern, {
      auth: ROOT,
      path: agbot,
      body: { patternOrgid: widest, pattern: widest },
    });
    expect(pattern.status, pattern.text).toBe(201);
    const policy = await invoke(postPolicy, {
      auth: ROOT,
      path: agbot,
      body: { businessPolOrgid: widest, businessPol: widest },
    });
    expect(policy.status, policy.text).toBe(201);
    const read = await invoke(getPattern, {
      auth: ROOT,
      path: { ...agbot, deploymentpattern: `${widest}_${widest}` },
    });
    expect(read.status, read.text).toBe(200);
    // As wide, but not the agbot's id: one org/id is one identity (a node there would shadow it).
    const widestNode = `${widest.slice(1)}国`;
    const node = await invoke(putNode, {
      auth: ROOT,
      path: { organization: widest, node: widestNode },
      query: { noheartbeat: 'true' },
      body: { name: 'n', token: 'abcdefgh1', pattern: '', publicKey: '' },
    });
    expect(node.status, node.text).toBe(201);
    const status = await invoke(putStatus, {
      auth: ROOT,
      path: { organization: widest, node: widestNode, mgmtpolicy: widest },
      body: { agentUpgradePolicyStatus: { scheduledTime: 't' } },
    });
    expect(status.status, status.text).toBe(201);
  });

  it('refuses served names over the byte limit in a body (400 naming the field)', async () => {
    const result = await invoke(postPattern, {
      auth: ROOT,
      path: { organization: 'acme', agreementbot: 'a1' },
      body: { patternOrgid: wide, pattern: 'p' },
    });
    expect(result.status).toBe(400);
    expect(result.body.msg).toBe(
      `invalid input: body field 'patternOrgid': must be at most ${MAX_ID_BYTES} bytes in UTF-8`,
    );
  });

  it('caps list filters (400 naming the query field) and never sends an over-long key prefix', async () => {
    const over = 'a'.repeat(MAX_FILTER_LENGTH + 1);
    const lists: { handler: unknown; path: Record<string, string>; field: string }[] = [
      { handler: listNodes, path: { organization: 'acme' }, field: 'name' },
      { handler: listAgbots, path: { organization: 'acme' }, field: 'idfilter' },
      { handler: getOrgs, path: {}, field: 'organization' },
    ];
    for (const { handler, path, field } of lists) {
      const result = await invoke(handler as typeof listNodes, {
        auth: admin,
        path,
        query: { [field]: over },
      });
      expect(result.status).toBe(400);
      expect(result.body.msg).toBe(
        `invalid input: query field '${field}': must be at most ${MAX_FILTER_LENGTH} characters`,
      );
    }
    // Within the cap, a literal start longer than any id (in bytes) matches nothing: 404, not a refused key.
    const widePrefix = `${'中'.repeat(400)}%`;
    const orgs = await invoke(getOrgs, { auth: ROOT, query: { organization: widePrefix } });
    expectSafeAnswer(orgs, 'orgs prefix');
    expect(orgs.status).toBe(404);
    const agbots = await invoke(listAgbots, {
      auth: ROOT,
      path: { organization: 'acme' },
      query: { idfilter: `acme/${widePrefix}` },
    });
    expectSafeAnswer(agbots, 'agbots prefix');
    expect(agbots.status).toBe(404);
  });
});
