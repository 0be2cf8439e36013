import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, tableName } from '#tables/client';
import { getFleetSnapshot } from '#tables/org/fleet-snapshot';
import { createOrg, createUser } from '#test/support/identities';
import { AFTER_CHANGE_MS, fleetSummaryKeeper, REFRESH_MS } from '../../../agbot/lambda/fleet-summaries.ts';
import { exchangeCall } from '../../../agbot/test-support/scripted-node.ts';
import { forgetFleetSummaries } from '../../../functions/console/shared/summaries.ts';
import { crashingStore, createRoundHandler, exchangeBaseUrl, noCrash } from './crash/scenario.ts';

/**
 * The in-stack agbot's round keeps each org's console fleet summary (agbot/lambda/fleet-summaries.ts):
 * the console's first request finds one. Time is the keeper's clock, moved by the test.
 */
describe("the in-stack agbot keeps the orgs' fleet summaries", () => {
  it('after node changes at most every 5 minutes, otherwise every 6 hours; the first render finds it', async () => {
    noCrash();
    const org = 'fleet-keep';
    await createOrg(org);
    const owner = await createUser(org, 'owner', { admin: true });
    const call = (method: string, path: string, body?: unknown) =>
      exchangeCall(exchangeBaseUrl(), owner, method, path, body);
    const addNode = async (id: string) => {
      const record = { name: id, token: 'node-token-1', pattern: '', publicKey: '', arch: 'arm64' };
      expect((await call('PUT', `/orgs/${org}/nodes/${id}`, record)).status).toBe(201);
    };
    let now = Date.parse('2026-11-29T12:00:00Z');
    const round = createRoundHandler(
      crashingStore,
      fleetSummaryKeeper(() => now),
    );
    const invoke = async () => {
      // What the console's instance computed is forgotten, so only the table can answer.
      forgetFleetSummaries();
      expect((await round(undefined, { getRemainingTimeInMillis: () => 60_000 })).rounds).toBeGreaterThan(0);
    };
    const kept = async () =>
      (await getFleetSnapshot(org, undefined))?.summary as { total: number } | undefined;
    const forgetKept = () =>
      documentClient.send(
        new DeleteCommand({ TableName: tableName(), Key: { pk: `ORG#${org}`, sk: 'FLEETSUMMARY#*' } }),
      );

    await addNode('n1');
    await addNode('n2');
    await invoke();
    const first = await getFleetSnapshot(org, undefined);
    expect(first?.summary).toMatchObject({ total: 2 });

    // The Fleet page's first request (maxAge a day) is answered with it, not computed again.
    forgetFleetSummaries();
    const page = await call('GET', `/console/orgs/${org}/fleet?maxAge=86400`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ at: first?.at, total: 2 });

    // Idle: nothing asked (a summary asked for would be computed and kept again).
    await forgetKept();
    await invoke();
    expect(await kept()).toBeUndefined();

    // A node added within 5 minutes of the last: not yet; at 5 minutes: a new one.
    await addNode('n3');
    now += 60_000;
    await invoke();
    expect(await kept()).toBeUndefined();
    now += AFTER_CHANGE_MS;
    await invoke();
    expect((await kept())?.total).toBe(3);

    // No change for 6 hours: asked again, and kept (none was).
    await forgetKept();
    now += REFRESH_MS - 1;
    await invoke();
    expect(await kept()).toBeUndefined();
    now += 1;
    await invoke();
    expect((await kept())?.total).toBe(3);
  }, 300_000);
});
