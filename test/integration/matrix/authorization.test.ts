import { describe } from 'vitest';
import { useInProcessExchange } from '#test/support/in-process-exchange';
import { defineMatrix } from '#test/support/matrix';
import { useMatrixWorld } from '#test/support/matrix-world';
import { expectStatus, putNodePolicy } from '#test/support/world';
import { adminCases, agentFileVersions } from './cases/admin.ts';
import { nodeCases } from './cases/nodes.ts';
import { orgCases } from './cases/orgs.ts';
import { rootOrgCases } from './cases/root-org.ts';
import { userCases } from './cases/users.ts';

/**
 * Every endpoint of issue 2 × every kind of caller, same org and other org, over HTTP to the
 * handlers in this process; expected statuses from docs/exchange.md#authorization and the endpoint sections (docs/exchange.md#administration to #agent-file-versions,
 * docs/exchange.md#organizations to #nodes). Each case sets up what it changes, so cases do not depend on their order. Every 2xx
 * body is checked against upstream's OpenAPI response schema.
 */
const server = useInProcessExchange();
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
