import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import { createAgbot } from '#test/support/identities';
import { useInProcessExchange } from '#test/support/in-process-exchange';
import { defineMatrix } from '#test/support/matrix';
import { useMatrixWorld } from '#test/support/matrix-world';
import { deploymentPolicyCases } from './cases/deployment-policies.ts';
import { patternCases } from './cases/patterns.ts';
import { searchCases } from './cases/searches.ts';
import { serviceCases } from './cases/services.ts';

/**
 * Every service endpoint (issue 10 item 1) × every kind of caller — root, hub admin, org admin,
 * the owning user and another, nodes and agbots of the same and another org, a multi-tenant agbot
 * — over HTTP to the handlers in this process. Expected statuses from docs/exchange-catalog.md#catalog-authorization, #services.
 * Every 2xx body is checked against our OpenAPI document and upstream's.
 */
const server = useInProcessExchange();
const getWorld = useMatrixWorld(server, 'sv', async (world) => {
  world.multiTenantAgbot = await createAgbot('IBM', `mt-${randomBytes(3).toString('hex')}`, 'root/root', {
    token: `mt-token-${randomBytes(4).toString('hex')}`,
  });
});

describe.concurrent('services', () => defineMatrix(serviceCases, getWorld, server.http));
// Deployment policies share this file's Exchange and world (they deploy services of `same`).
describe.concurrent('deployment policies', () => defineMatrix(deploymentPolicyCases, getWorld, server.http));
describe.concurrent('deployment patterns', () => defineMatrix(patternCases, getWorld, server.http));
describe.concurrent('node searches and node health', () => defineMatrix(searchCases, getWorld, server.http));
