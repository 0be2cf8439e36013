import { describe } from 'vitest';
import { defineMatrix } from '#test/support/matrix';
import { useMatrixWorld } from '#test/support/matrix-world';
import { expectStatus, putNodePolicy } from '#test/support/world';
import { adminCases, agentFileVersions } from './matrix/admin.ts';
import { nodeCases } from './matrix/nodes.ts';
import { orgCases } from './matrix/orgs.ts';
import { rootOrgCases } from './matrix/root-org.ts';
import { userCases } from './matrix/users.ts';
import { useOffline } from './support/offline.ts';

/**
 * Every endpoint of issue 2 × every kind of caller, same org and other org, over HTTP through
 * serverless-offline; expected statuses from docs/exchange.md#authorization and the endpoint sections (docs/exchange.md#administration to #agent-file-versions,
 * docs/exchange.md#organizations to #nodes). Each case sets up what it changes, so cases do not depend on their order. Every 2xx
 * body is checked against upstream's OpenAPI response schema.
 */
const server = useOffline();
const getWorld = useMatrixWorld(server, 'mx', async (world) => {
  await putNodePolicy(world, world.same.node);
  const seeded = await server.http('PUT', '/v1/orgs/IBM/AgentFileVersion', {
    auth: world.root,
    body: agentFileVersions,
  });
  expectStatus(seeded, 201, 'PUT /v1/orgs/IBM/AgentFileVersion');
  const own = `/v1/orgs/${world.same.org}/AgentFileVersion`;
  const seededOwn = await server.http('PUT', own, { auth: world.root, body: agentFileVersions });
  expectStatus(seededOwn, 201, `PUT ${own}`);
});

describe.concurrent('organizations', () => defineMatrix(orgCases, getWorld, server.http));
describe.concurrent('users', () => defineMatrix(userCases, getWorld, server.http));
describe.concurrent('nodes', () => defineMatrix(nodeCases, getWorld, server.http));
describe.concurrent('org root', () => defineMatrix(rootOrgCases, getWorld, server.http));
describe.concurrent('administration', () => defineMatrix(adminCases, getWorld, server.http));
