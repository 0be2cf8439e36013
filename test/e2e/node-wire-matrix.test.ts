import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAgbot } from '#test/support/identities';
import { changesCases } from './matrix/changes.ts';
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
import { createNode, freshId } from './support/world.ts';

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
// The change feed shares this file's server and world (a multi-tenant agbot included).
describe.concurrent('change feed', () => defineMatrix(changesCases, getWorld, server.http));

/**
 * The requests anax's agent makes (agreements-and-workloads §1.10, anax exchange/node.go and
 * governance/status.go), byte-shaped as Go's encoding/json writes them: `omitempty` fields left
 * out, nil slices as null. Each must succeed, and the reads must carry the keys anax decodes.
 */
describe('what the anax agent sends', () => {
  it('records an agreement (policy case), finalizes it, reports status and errors, then cancels', async () => {
    const w = getWorld();
    const node = await createNode(w, w.same.user, freshId('anax'));
    const [org, id] = node.user.split('/');
    const base = `/v1/orgs/${org}/nodes/${id}`;
    const agid = randomBytes(32).toString('hex');
    // PutAgreementState: services omitted when empty; WorkloadAgreement's orgid/url are omitempty.
    const agreement = (state: string) => ({
      state,
      agreementService: { orgid: org, pattern: '', url: 'svcorg/svc.url' },
    });
    const recorded = await server.http('PUT', `${base}/agreements/${agid}`, {
      auth: node,
      query: { noheartbeat: 'true' },
      body: agreement('Agree to proposal'),
    });
    expect(recorded.status, recorded.text).toBe(201);
    const finalized = await server.http('PUT', `${base}/agreements/${agid}`, {
      auth: node,
      query: { noheartbeat: 'true' },
      body: agreement('Finalized Agreement'),
    });
    expect(finalized.status).toBe(201);
    // DeviceAgreement: services, state, agrService, lastUpdated.
    const listed = await server.http('GET', `${base}/agreements`, { auth: node });
    expect(listed.body.agreements[agid]).toMatchObject({
      services: [],
      state: 'Finalized Agreement',
      agrService: { orgid: org, pattern: '', url: 'svcorg/svc.url' },
    });
    // DeviceStatus: connectivity omitempty; a suspended service with no agreement and nil containers.
    const status = {
      services: [
        {
          agreementId: agid,
          serviceUrl: 'svc.url',
          orgid: 'svcorg',
          version: '1.0.0',
          arch: 'amd64',
          containerStatus: [{ name: 'svc', image: 'svc:1.0.0', created: 1763900000, state: 'running' }],
        },
        {
          agreementId: '',
          serviceUrl: 'other',
          orgid: 'svcorg',
          containerStatus: null,
          configState: 'suspended',
        },
      ],
    };
    expect((await server.http('PUT', `${base}/status`, { auth: node, body: status })).status).toBe(201);
    // NodeStatus (what an agbot reads): runningServices.
    const read = await server.http('GET', `${base}/status`, { auth: w.same.agbot });
    expect(read.body.runningServices).toBe('|svcorg/svc.url_1.0.0_amd64|svcorg/other__|');
    // ExchangeSurfaceError: errors, each a SurfaceError.
    const surfaced = {
      errors: [
        {
          record_id: '7',
          message: 'x',
          event_code: 'error_start_container',
          hidden: false,
          workload: { url: 'svc.url', org: 'svcorg', version: '1.0.0', arch: 'amd64' },
          timestamp: 1763900000,
        },
      ],
    };
    expect((await server.http('PUT', `${base}/errors`, { auth: node, body: surfaced })).status).toBe(201);
    expect((await server.http('GET', `${base}/errors`, { auth: node })).body.errors).toEqual(surfaced.errors);
    // Cancel: DELETE the agreement (404 tolerated on a repeat), and unregistration's empty status.
    expect((await server.http('DELETE', `${base}/agreements/${agid}`, { auth: node })).status).toBe(204);
    expect((await server.http('DELETE', `${base}/agreements/${agid}`, { auth: node })).status).toBe(404);
    expect((await server.http('PUT', `${base}/status`, { auth: node, body: { services: [] } })).status).toBe(
      201,
    );
  });
});
