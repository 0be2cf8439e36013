import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { FeedNumberingTimeout, sequencePendingChanges } from '#tables/feed/changes';
import type { Credentials } from '#test/support/http';
import { createAgbot } from '#test/support/identities';
import { useInProcessExchange } from '#test/support/in-process-exchange';
import { defineMatrix } from '#test/support/matrix';
import { useMatrixWorld } from '#test/support/matrix-world';
import { createNode, expectStatus, freshId } from '#test/support/world';
import { changesCases } from './cases/changes.ts';
import {
  nodeAgreementCases,
  nodeReportCases,
  patternAliasCases,
  policyAliasCases,
  seedNodeReports,
} from './cases/node-wire.ts';

/**
 * Node agreements, status, errors and services_configstate, and the agbot served pattern/policy
 * aliases, × every kind of caller (same org, other org, a multi-tenant agbot of org IBM), over
 * HTTP to the handlers in this process. A node never reads or writes another node's records.
 * Every 2xx body is checked against our OpenAPI document and upstream's.
 */
const server = useInProcessExchange();
/**
 * Each section's cases run concurrently against this file's one Exchange: on a busy machine a 2xx
 * here has taken 6–11 s through serverless-offline (the change feed's most), so a case gets 90 s
 * rather than the default 30.
 */
const CASE_TIMEOUT_MS = 90_000;
const getWorld = useMatrixWorld(server, 'nw', async (world) => {
  world.multiTenantAgbot = await createAgbot('IBM', 'nw-mt-agbot', 'root/root', {
    token: `mt-${randomBytes(4).toString('hex')}`,
  });
  await seedNodeReports(world);
});

describe.concurrent('node agreements', () =>
  defineMatrix(nodeAgreementCases, getWorld, server.http, CASE_TIMEOUT_MS));
describe.concurrent('node status, errors, config state', () =>
  defineMatrix(nodeReportCases, getWorld, server.http, CASE_TIMEOUT_MS));
describe.concurrent('agbot /patterns aliases', () =>
  defineMatrix(patternAliasCases, getWorld, server.http, CASE_TIMEOUT_MS));
describe.concurrent('agbot /businesspols aliases', () =>
  defineMatrix(policyAliasCases, getWorld, server.http, CASE_TIMEOUT_MS));
// The change feed shares this file's Exchange and world (a multi-tenant agbot included). Its cases
// run one after another: forty readers at once on a loaded DynamoDB Local all wait on the one that
// numbers, past a request's 29 s (concurrent numbering is tested in test/integration/changes/).
describe('change feed', () => {
  // The sections above wrote thousands of changes that nothing read, where a fleet's readers keep
  // the pending rows few; a read must number them all first (tables/README.md, "The change
  // feed"), which on a loaded machine takes longer than one request may. So they are numbered here.
  beforeAll(numberEveryPendingChange, 600_000);
  defineMatrix(changesCases, getWorld, server.http, CASE_TIMEOUT_MS);
});

async function numberEveryPendingChange(): Promise<void> {
  for (;;) {
    try {
      await sequencePendingChanges();
      return;
    } catch (error) {
      if (!(error instanceof FeedNumberingTimeout)) throw error;
    }
  }
}

/**
 * The requests anax's agent makes (docs/protocol.md#agreement-rows-and-states, anax exchange/node.go and
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

/**
 * The wire between an agbot and a node (issue 11), as the two programs use it but scripted: the
 * agbot finds a configured node by searching a deployment policy it serves, writes to the node's
 * mailbox; the node learns of it from its change feed, reads and deletes it, records an agreement;
 * the same search then passes the node over.
 */
describe('an agbot and a node find each other through the Exchange', () => {
  it('search → message → feed → read and delete → node agreement → search skips the node', async () => {
    const w = getWorld();
    const org = w.same.org;
    const must = async (method: string, path: string, auth: Credentials, body?: unknown, status = 201) =>
      expectStatus(await server.http(method, path, { auth, body }), status, `${method} ${path}`);
    // Published by the org's admin: a service and a deployment policy for it.
    const url = freshId('wire-svc');
    await must('POST', `/v1/orgs/${org}/services`, w.same.admin, {
      label: url,
      url,
      version: '1.0.0',
      arch: 'amd64',
      sharable: 'multiple',
    });
    const policy = freshId('wire-pol');
    await must('POST', `/v1/orgs/${org}/business/policies/${policy}`, w.same.admin, {
      label: 'wire',
      service: { name: url, org, arch: 'amd64', serviceVersions: [{ version: '1.0.0' }] },
    });
    // The agbot: a public key, and it serves the org's policies (upstream's `*`).
    const agbot = await createAgbot(org, freshId('wire-agbot'), w.same.admin.user, {
      token: 'wire-agbot-token',
    });
    const [, agbotId] = agbot.user.split('/');
    await must('PATCH', `/v1/orgs/${org}/agbots/${agbotId}`, agbot, { publicKey: 'agbot-public-key' }, 200);
    await must('POST', `/v1/orgs/${org}/agbots/${agbotId}/businesspols`, w.root, {
      businessPolOrgid: org,
      businessPol: '*',
      nodeOrgid: org,
    });
    // The node, as its agent registers it: token and public key, heartbeating.
    const nodeId = freshId('wire-node');
    const node = { user: `${org}/${nodeId}`, secret: 'wire-node-token' };
    await must('PUT', `/v1/orgs/${org}/nodes/${nodeId}`, w.same.user, {
      name: nodeId,
      token: node.secret,
      pattern: '',
      publicKey: 'node-public-key',
      arch: 'amd64',
    });
    const { body: newest } = await must('GET', '/v1/changes/maxchangeid', node, undefined, 200);
    const since = Number(newest.maxChangeId) + 1;

    // 1. The agbot's search finds the node.
    const search = () =>
      server.http('POST', `/v1/orgs/${org}/business/policies/${policy}/search`, { auth: agbot, body: {} });
    const found = await search();
    expect(found.status, found.text).toBe(201);
    expect(found.body.nodes).toContainEqual({
      id: node.user,
      nodeType: 'device',
      publicKey: 'node-public-key',
    });
    // 2. It writes to the node's mailbox.
    const posted = await must('POST', `/v1/orgs/${org}/nodes/${nodeId}/msgs`, agbot, {
      message: 'proposal',
      ttl: 300,
    });
    const msgId = Number(/node msg (\d+) inserted/.exec(posted.body.msg)?.[1]);
    // 3. The node's feed says `nodemsgs` for it (numbered as the signal dispatcher numbers it
    // before waking the node); it reads the message and deletes it.
    await sequencePendingChanges();
    const feed = await must('POST', `/v1/orgs/${org}/changes`, node, { changeId: since, maxRecords: 100 });
    const mine = feed.body.changes.filter((c: { id: string }) => c.id === nodeId);
    expect(mine.map((c: { resource: string }) => c.resource)).toContain('nodemsgs');
    const inbox = await must('GET', `/v1/orgs/${org}/nodes/${nodeId}/msgs`, node, undefined, 200);
    expect(inbox.body.messages).toMatchObject([
      { msgId, agbotId: agbot.user, agbotPubKey: 'agbot-public-key', message: 'proposal' },
    ]);
    await must('DELETE', `/v1/orgs/${org}/nodes/${nodeId}/msgs/${msgId}`, node, undefined, 204);
    expect((await server.http('GET', `/v1/orgs/${org}/nodes/${nodeId}/msgs`, { auth: node })).status).toBe(
      404,
    );
    // 4. The node records the agreement.
    await must('PUT', `/v1/orgs/${org}/nodes/${nodeId}/agreements/${randomBytes(16).toString('hex')}`, node, {
      services: [{ orgid: org, url }],
      agreementService: { orgid: org, pattern: '', url: `${org}/${url}` },
      state: 'Finalized Agreement',
    });
    // 5. The same search passes it over now.
    const after = await search();
    expect(after.body.nodes.map((n: { id: string }) => n.id)).not.toContain(node.user);
  });
});
