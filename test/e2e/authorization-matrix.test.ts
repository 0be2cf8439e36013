import { beforeAll, describe } from 'vitest';
import { adminCases, agentFileVersions } from './matrix/admin.ts';
import { nodeCases } from './matrix/nodes.ts';
import { orgCases } from './matrix/orgs.ts';
import { rootOrgCases } from './matrix/root-org.ts';
import { userCases } from './matrix/users.ts';
import { defineMatrix, type World } from './support/matrix.ts';
import { useOffline } from './support/offline.ts';
import { createOrgWorld, createUser, expectStatus, type Fixtures, putNodePolicy } from './support/world.ts';

/**
 * Every endpoint of issue 2 × every kind of caller, same org and other org, over HTTP through
 * serverless-offline; expected statuses from reference §3 and the endpoint sections (§5–§7,
 * §9–§11). Each case sets up what it changes, so cases do not depend on their order. Every 2xx
 * body is checked against upstream's OpenAPI response schema.
 */
const server = useOffline();
let world: World | undefined;

beforeAll(async () => {
  const fixtures: Fixtures = { http: server.http, root: { user: 'root/root', secret: server.rootPassword } };
  const hubAdmin = await createUser(fixtures, 'root', 'hubadmin', { hubAdmin: true });
  const [same, other] = await Promise.all([
    createOrgWorld(fixtures, 'mx-same'),
    createOrgWorld(fixtures, 'mx-other'),
  ]);
  const targetUser = await createUser(fixtures, same.org, 'target');
  await putNodePolicy(fixtures, same.node);
  const seeded = await server.http('PUT', '/v1/orgs/IBM/AgentFileVersion', {
    auth: fixtures.root,
    body: agentFileVersions,
  });
  expectStatus(seeded, 201, 'PUT /v1/orgs/IBM/AgentFileVersion');
  world = { ...fixtures, hubAdmin, same, other, targetUser };
}, 120_000);

const getWorld = (): World => {
  if (!world) throw new Error('fixtures were not created (see the beforeAll failure)');
  return world;
};

describe.concurrent('organizations', () => defineMatrix(orgCases, getWorld, server.http));
describe.concurrent('users', () => defineMatrix(userCases, getWorld, server.http));
describe.concurrent('nodes', () => defineMatrix(nodeCases, getWorld, server.http));
describe.concurrent('org root', () => defineMatrix(rootOrgCases, getWorld, server.http));
describe.concurrent('administration', () => defineMatrix(adminCases, getWorld, server.http));
