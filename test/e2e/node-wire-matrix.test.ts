import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import { createAgbot } from '#test/support/identities';
import {
  nodeAgreementCases,
  nodeReportCases,
  patternAliasCases,
  policyAliasCases,
  seedNodeReports,
} from './matrix/node-wire.ts';
import { defineMatrix } from './support/matrix.ts';
import { useMatrixWorld } from './support/matrix-world.ts';
import { useOffline } from './support/offline.ts';

/**
 * Node agreements, status, errors and services_configstate, and the agbot served pattern/policy
 * aliases, × every kind of caller (same org, other org, a multi-tenant agbot of org IBM), over
 * HTTP through serverless-offline. A node never reads or writes another node's records. Every
 * 2xx body is checked against our OpenAPI document and upstream's.
 */
const server = useOffline();
const getWorld = useMatrixWorld(server, 'nw', async (world) => {
  world.multiTenantAgbot = await createAgbot('IBM', 'nw-mt-agbot', 'root/root', {
    token: `mt-${randomBytes(4).toString('hex')}`,
  });
  await seedNodeReports(world);
});

describe.concurrent('node agreements', () => defineMatrix(nodeAgreementCases, getWorld, server.http));
describe.concurrent('node status, errors, config state', () =>
  defineMatrix(nodeReportCases, getWorld, server.http));
describe.concurrent('agbot /patterns aliases', () => defineMatrix(patternAliasCases, getWorld, server.http));
describe.concurrent('agbot /businesspols aliases', () =>
  defineMatrix(policyAliasCases, getWorld, server.http));
