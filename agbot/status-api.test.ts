import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgbotAgreement } from '#lib/agbot-store/contract';
import { statusApi } from './status-api.ts';
import { SqliteAgbotStore } from './store/sqlite-store.ts';

const NOW = Date.parse('2025-01-01T12:00:00Z');
const agreement = (id: string, over: Partial<AgbotAgreement> = {}): AgbotAgreement => ({
  agreementId: id,
  nodeOrg: 'acme',
  nodeId: `node-${id}`,
  policy: 'acme/pol',
  service: { org: 'acme', url: 'svc', version: '1.0.0', arch: 'amd64' },
  state: 'Formed Proposal',
  createdAt: NOW - 60_000,
  updatedAt: NOW - 60_000,
  archived: false,
  details: { protocolTimeoutS: 240, secrets: [], proposedAt: NOW - 59_000 },
  ...over,
});

describe('the standalone agbot status API', () => {
  let dir: string;
  let store: SqliteAgbotStore;
  const api = () =>
    statusApi(() => ({ org: 'IBM', id: 'agbot', exchangeUrl: 'http://x/v1', rounds: 1 }), store);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agbot-status-'));
    store = SqliteAgbotStore.open(dir);
    await store.saveAgreement(agreement('a1'));
    await store.saveAgreement(
      agreement('a2', {
        state: 'Finalized Agreement',
        details: { protocolTimeoutS: 240, secrets: [], proposedAt: NOW - 59_000, repliedAt: NOW - 58_000 },
      }),
    );
    await store.saveAgreement(
      agreement('a3', {
        nodeId: 'gone',
        archived: true,
        terminatedReason: 201,
        terminatedDescription: 'no reply',
      }),
    );
    await store.savePolicyStatus({
      policy: 'acme/pol',
      search: { at: NOW - 30_000, full: true, found: 3, matched: 2, skipped: 1 },
      skipped: [{ node: 'acme/arm-node', reason: 'service arch amd64 is not arm64', since: NOW - 30_000 }],
    });
    await store.savePolicyStatus({
      policy: 'beta/other',
      search: { at: NOW, full: true, found: 0, matched: 0, skipped: 0 },
      skipped: [],
    });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers GET /agreement in upstream's field names", async () => {
    const body = (await api().inject({ method: 'GET', url: '/agreement' })).json();
    expect(body.agreements.active).toHaveLength(2);
    expect(body.agreements.active[1]).toMatchObject({
      current_agreement_id: 'a2',
      org: 'acme',
      device_id: 'acme/node-a2',
      agreement_protocol: 'Basic',
      agreement_inception_time: (NOW - 60_000) / 1000,
      agreement_creation_time: (NOW - 59_000) / 1000,
      agreement_finalized_time: (NOW - 58_000) / 1000,
      policy_name: 'acme/pol',
      archived: false,
    });
    expect(body.agreements.archived[0]).toMatchObject({
      current_agreement_id: 'a3',
      agreement_timeout: (NOW - 60_000) / 1000,
      terminated_reason: 201,
      terminated_description: 'no reply',
    });
  });

  it("lists the policies served in upstream's org → names shape, all or of one org", async () => {
    expect((await api().inject({ method: 'GET', url: '/policy' })).json()).toEqual({
      acme: ['pol'],
      beta: ['other'],
    });
    expect((await api().inject({ method: 'GET', url: '/policy/beta' })).json()).toEqual({ beta: ['other'] });
    expect((await api().inject({ method: 'GET', url: '/policy/none' })).json()).toEqual({ none: [] });
  });

  it('answers one policy with its counts and skipped nodes; 404 for one not served', async () => {
    const body = (await api().inject({ method: 'GET', url: '/policy/acme/pol' })).json();
    expect(body).toEqual({
      org: 'acme',
      name: 'pol',
      matched: 2,
      proposed: 1,
      agreed: 1,
      running: 0,
      failing: 0,
      lastSearch: { at: new Date(NOW - 30_000).toISOString(), full: true, found: 3, matched: 2, skipped: 1 },
      skipped: [
        {
          node: 'acme/arm-node',
          reason: 'service arch amd64 is not arm64',
          since: new Date(NOW - 30_000).toISOString(),
        },
      ],
    });
    const missing = await api().inject({ method: 'GET', url: '/policy/acme/nope' });
    expect(missing.statusCode).toBe(404);
  });
});
