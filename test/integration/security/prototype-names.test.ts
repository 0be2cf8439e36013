import { beforeAll, describe, expect, it } from 'vitest';
import { handler as orgStatus } from '#functions/admin/orgstatus';
import { handler as listPatterns } from '#functions/agbot-patterns/list-patterns';
import { handler as postPattern } from '#functions/agbot-patterns/post-pattern';
import { handler as listPolicies } from '#functions/agbot-policies/list-policies';
import { handler as postPolicy } from '#functions/agbot-policies/post-policy';
import { handler as getAgbot } from '#functions/agbots/get-agbot';
import { handler as listAgbots } from '#functions/agbots/list-agbots';
import { handler as getStatus } from '#functions/node-management-status/get-management-status';
import { handler as listStatuses } from '#functions/node-management-status/get-management-statuses';
import { handler as putStatus } from '#functions/node-management-status/put-management-status';
import { handler as getNode } from '#functions/nodes/get-node';
import { handler as getNodePolicy } from '#functions/nodes/get-node-policy';
import { handler as listNodes } from '#functions/nodes/list-nodes';
import { handler as patchNode } from '#functions/nodes/patch-node';
import { handler as putNode } from '#functions/nodes/put-node';
import { handler as putNodePolicy } from '#functions/nodes/put-node-policy';
import { handler as getOrg } from '#functions/orgs/get-org';
import { handler as getOrgs } from '#functions/orgs/get-orgs';
import { handler as patchOrg } from '#functions/orgs/patch-org';
import { handler as postOrg } from '#functions/orgs/post-org';
import { handler as getUser } from '#functions/users/get-user';
import { handler as getUsers } from '#functions/users/get-users';
import { handler as patchUser } from '#functions/users/patch-user';
import { seedDeploymentPolicy, seedManagementPolicy, seedPattern, seedService } from '#test/support/catalog';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { expectSafeAnswer, PROTOTYPE_NAMES } from './support.ts';

useTestTable();

type Auth = { user: string; secret: string };
let admin: Auth;
let node: Auth;
let agbot: Auth;

beforeAll(async () => {
  await createOrg('acme');
  // The nodes' userInput names it (a node's userInput must name a service it may see).
  await seedService('o', { url: 's', version: '1.0.0', arch: 'amd64', public: true });
  admin = await createUser('acme', 'admin', { admin: true });
  node = await createNode('acme', 'n1', 'acme/admin');
  agbot = await createAgbot('acme', 'a1', 'acme/admin');
  // A served pattern or policy must exist.
  await Promise.all([
    seedPattern('acme', 'p'),
    seedDeploymentPolicy('acme', 'p'),
    seedManagementPolicy('acme', 'p'),
  ]);
  const status = { agentUpgradePolicyStatus: { scheduledTime: '2031-05-02T00:00:00Z' } };
  expect(
    (
      await invoke(putStatus, {
        auth: node,
        path: { organization: 'acme', node: 'n1', mgmtpolicy: 'p' },
        body: status,
      })
    ).status,
  ).toBe(201);
  const agbotPath = { organization: 'acme', agreementbot: 'a1' };
  expect(
    (
      await invoke(postPattern, {
        auth: admin,
        path: agbotPath,
        body: { patternOrgid: 'acme', pattern: 'p' },
      })
    ).status,
  ).toBe(201);
  expect(
    (
      await invoke(postPolicy, {
        auth: admin,
        path: agbotPath,
        body: { businessPolOrgid: 'acme', businessPol: 'p' },
      })
    ).status,
  ).toBe(201);
});

describe('a caller’s name never reaches Object.prototype', () => {
  it('GET a node with ?attribute=<prototype name> answers the node (an unknown name), never the stored record', async () => {
    for (const attribute of PROTOTYPE_NAMES) {
      const result = await invoke(getNode, {
        auth: admin,
        path: { organization: 'acme', node: 'n1' },
        query: { attribute },
      });
      expectSafeAnswer(result, `node ?attribute=${attribute}`);
      expect(result.status).toBe(200);
      expect(Object.keys(result.body)).toEqual(['nodes', 'lastIndex']);
      expect(result.body.nodes['acme/n1'].token).toBe('***************');
    }
    // The real names still answer their value.
    const arch = await invoke(getNode, {
      auth: admin,
      path: { organization: 'acme', node: 'n1' },
      query: { attribute: 'TOKEN' },
    });
    expect(arch.body).toEqual({ attribute: 'TOKEN', value: '***************' });
  });

  it('GET an agbot or an org with ?attribute=<prototype name> answers 400 naming the attribute', async () => {
    for (const attribute of PROTOTYPE_NAMES) {
      const agbotResult = await invoke(getAgbot, {
        auth: admin,
        path: { organization: 'acme', agreementbot: 'a1' },
        query: { attribute },
      });
      expectSafeAnswer(agbotResult, `agbot ?attribute=${attribute}`);
      expect(agbotResult.status).toBe(400);
      const orgResult = await invoke(getOrg, {
        auth: admin,
        path: { organization: 'acme' },
        query: { attribute },
      });
      expectSafeAnswer(orgResult, `org ?attribute=${attribute}`);
      expect(orgResult.status).toBe(400);
    }
  });

  it('GET management statuses with ?attribute=<prototype name> answers the statuses (the parameter is ignored)', async () => {
    for (const attribute of PROTOTYPE_NAMES) {
      const one = await invoke(getStatus, {
        auth: admin,
        path: { organization: 'acme', node: 'n1', mgmtpolicy: 'p' },
        query: { attribute },
      });
      expectSafeAnswer(one, `status ?attribute=${attribute}`);
      expect(Object.keys(one.body.managementStatus)).toEqual(['acme/p']);
      const all = await invoke(listStatuses, {
        auth: admin,
        path: { organization: 'acme', node: 'n1' },
        query: { attribute },
      });
      expectSafeAnswer(all, `statuses ?attribute=${attribute}`);
      expect(all.status).toBe(200);
    }
  });

  it('list filters named like prototype members match nothing and answer upstream’s empty 404', async () => {
    const lists: { handler: typeof listNodes; path: Record<string, string>; fields: string[] }[] = [
      {
        handler: listNodes,
        path: { organization: 'acme' },
        fields: ['idfilter', 'name', 'owner', 'arch', 'clusternamespace'],
      },
      { handler: listAgbots, path: { organization: 'acme' }, fields: ['idfilter', 'name', 'owner'] },
      { handler: getOrgs, path: {}, fields: ['label', 'organization', 'description'] },
      {
        handler: listPatterns,
        path: { organization: 'acme', agreementbot: 'a1' },
        fields: ['deployment_pattern', 'deployment_pattern_organization', 'node_organization'],
      },
      {
        handler: listPolicies,
        path: { organization: 'acme', agreementbot: 'a1' },
        fields: ['deployment_policy', 'deployment_policy_organization', 'node_organization'],
      },
    ];
    for (const { handler, path, fields } of lists) {
      for (const field of fields) {
        for (const name of PROTOTYPE_NAMES) {
          const result = await invoke(handler, { auth: admin, path, query: { [field]: name } });
          expectSafeAnswer(result, `?${field}=${name}`);
          expect(result.status, `?${field}=${name}`).toBe(404);
        }
      }
    }
  });

  it('ids named like prototype members are ordinary ids: 404 when absent, found when created', async () => {
    for (const name of PROTOTYPE_NAMES) {
      const reads = [
        await invoke(getNode, { auth: ROOT, path: { organization: 'acme', node: name } }),
        await invoke(getAgbot, { auth: ROOT, path: { organization: 'acme', agreementbot: name } }),
        await invoke(getUser, { auth: ROOT, path: { organization: 'acme', username: name } }),
        await invoke(getUsers, { auth: ROOT, path: { organization: name } }),
        await invoke(getOrg, { auth: ROOT, path: { organization: name } }),
      ];
      for (const result of reads) {
        expectSafeAnswer(result, `id ${name}`);
        expect(result.status).toBe(404);
      }
    }
    const created = await invoke(postOrg, {
      auth: ROOT,
      path: { organization: '__proto__' },
      body: { label: 'l', description: 'd' },
    });
    expect(created.status).toBe(201);
    await createNode('__proto__', 'constructor', 'acme/admin');
    const org = await invoke(getOrg, { auth: ROOT, path: { organization: '__proto__' } });
    expect(Object.keys(org.body.orgs)).toEqual(['__proto__']);
    const nodes = await invoke(listNodes, { auth: ROOT, path: { organization: '__proto__' } });
    expect(Object.keys(nodes.body.nodes)).toEqual(['__proto__/constructor']);
    const status = await invoke(orgStatus, { auth: ROOT });
    expectSafeAnswer(status, 'orgstatus');
    expect(Object.hasOwn(status.body.nodes, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(status.body.nodes, '__proto__')?.value).toBe(1);
  });

  it('refuses a __proto__ key anywhere in a body (400, naming it) instead of dropping it silently', async () => {
    const bodies: { handler: typeof patchOrg; path: Record<string, string>; body: string }[] = [
      { handler: patchOrg, path: { organization: 'acme' }, body: '{"tags":{"__proto__":"x"}}' },
      { handler: patchOrg, path: { organization: 'acme' }, body: '{"__proto__":{"label":"x"}}' },
      {
        handler: patchNode,
        path: { organization: 'acme', node: 'n1' },
        body: '{"softwareVersions":{"__proto__":"1"}}',
      },
      {
        handler: putNode,
        path: { organization: 'acme', node: 'n1' },
        body: '{"name":"n","token":"abcdefgh1","userInput":[{"serviceOrgid":"o","serviceUrl":"s","inputs":[{"name":"x","value":{"a":[{"__proto__":{"polluted":true}}]}}]}]}',
      },
      {
        handler: patchUser,
        path: { organization: 'acme', username: 'admin' },
        body: '{"__proto__":{"admin":true}}',
      },
    ];
    for (const { handler, path, body } of bodies) {
      const result = await invoke(handler, { auth: ROOT, path, body });
      expectSafeAnswer(result, body);
      expect(result.body).toEqual({
        code: 'invalid-input',
        msg: "invalid input: the body key '__proto__' is not allowed",
      });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Other keys named like prototype members are data like any other.
    const tags = await invoke(patchOrg, {
      auth: ROOT,
      path: { organization: 'acme' },
      body: { tags: { constructor: 'c', toString: 't' } },
    });
    expect(tags.status).toBe(201);
    const org = await invoke(getOrg, { auth: ROOT, path: { organization: 'acme' } });
    expect(org.body.orgs.acme.tags).toEqual({ constructor: 'c', toString: 't' });
  });

  it('stores maps whose keys are named constructor or toString (the SDK marshaller reads .constructor)', async () => {
    const tricky = { constructor: { name: 'Set' }, toString: 't', valueOf: 'v' };
    const put = await invoke(putNode, {
      auth: ROOT,
      path: { organization: 'acme', node: 'tricky' },
      query: { noheartbeat: 'true' },
      body: {
        name: 'tricky',
        token: 'tricky-token',
        pattern: '',
        publicKey: '',
        softwareVersions: { constructor: '1', toString: '2' },
        userInput: [{ serviceOrgid: 'o', serviceUrl: 's', inputs: [{ name: 'x', value: tricky }] }],
      },
    });
    expect(put.status, put.text).toBe(201);
    const read = await invoke(getNode, { auth: ROOT, path: { organization: 'acme', node: 'tricky' } });
    const view = read.body.nodes['acme/tricky'];
    expect(view.softwareVersions).toEqual({ constructor: '1', toString: '2' });
    expect(view.userInput[0].inputs[0].value).toEqual(tricky);
    const policy = await invoke(putNodePolicy, {
      auth: ROOT,
      path: { organization: 'acme', node: 'tricky' },
      body: { properties: [{ name: 'p', value: { constructor: { name: 'Map' } } }] },
    });
    expect(policy.status, policy.text).toBe(201);
    const stored = await invoke(getNodePolicy, {
      auth: ROOT,
      path: { organization: 'acme', node: 'tricky' },
    });
    expect(stored.body.properties).toEqual([{ name: 'p', value: { constructor: { name: 'Map' } } }]);
  });

  it('refuses a body nested deeper than an item can be (400), at any depth', async () => {
    for (const depth of [28, 40, 3_000, 20_000]) {
      const value = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      const body = `{"name":"d","token":"deep-token","pattern":"","publicKey":"","userInput":[{"serviceOrgid":"o","serviceUrl":"s","inputs":[{"name":"x","value":${value}}]}]}`;
      const result = await invoke(putNode, {
        auth: ROOT,
        path: { organization: 'acme', node: 'deep' },
        body,
      });
      expectSafeAnswer(result, `depth ${depth}`);
      expect(result.body).toEqual({
        code: 'invalid-input',
        msg: 'invalid input: the body nests deeper than 32 levels',
      });
    }
    const deepest = `${'['.repeat(27)}${']'.repeat(27)}`;
    const body = `{"name":"d","token":"deep-token","pattern":"","publicKey":"","userInput":[{"serviceOrgid":"o","serviceUrl":"s","inputs":[{"name":"x","value":${deepest}}]}]}`;
    const stored = await invoke(putNode, {
      auth: ROOT,
      path: { organization: 'acme', node: 'deep' },
      query: { noheartbeat: 'true' },
      body,
    });
    expect(stored.status, stored.text).toBe(201);
  });

  it('never answers a stored hash for any identity reading itself', async () => {
    const reads = [
      await invoke(getNode, { auth: node, path: { organization: 'acme', node: 'n1' } }),
      await invoke(getAgbot, { auth: agbot, path: { organization: 'acme', agreementbot: 'a1' } }),
      await invoke(getUser, { auth: admin, path: { organization: 'acme', username: 'admin' } }),
      await invoke(listNodes, { auth: admin, path: { organization: 'acme' } }),
      await invoke(listAgbots, { auth: admin, path: { organization: 'acme' } }),
      await invoke(getUsers, { auth: admin, path: { organization: 'acme' } }),
    ];
    for (const result of reads) {
      expectSafeAnswer(result, 'read');
      expect(result.status).toBe(200);
    }
  });
});
