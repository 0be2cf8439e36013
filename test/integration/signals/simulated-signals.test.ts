import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as putNodeAgreement } from '#functions/node-agreements/put-agreement';
import { handler as putNodePolicy } from '#functions/nodes/put-node-policy';
import { nodeConnections } from '#tables/signals/connections';
import { createNode, createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { type SimulatedSignals, startSimulatedSignals } from '#test/support/simulated-signals';
import { startInProcessStreamConsumer } from '#test/support/stream-consumer';
import { useTestTable } from '#test/support/table';
import type { StreamReader } from '../../../scripts/local/stream-reader.ts';

/**
 * The signal channel bench:scale's simulated nodes listen on (test/support/simulated-signals.ts):
 * a node connects through the channel's own `$connect`, and is woken by the stack's own stream
 * consumer and dispatcher for exactly the rows that wake an agent (lib/feed/visibility.ts).
 */
useTestTable();

const woken: string[] = [];
let signals: SimulatedSignals;
let reader: StreamReader;
type Auth = { user: string; secret: string };
let alice: Auth;
let n1: Auth;

beforeAll(async () => {
  signals = await startSimulatedSignals((node) => woken.push(node));
  reader = await startInProcessStreamConsumer();
  await createOrg('sim');
  alice = await createUser('sim', 'alice', { admin: true });
  n1 = await createNode('sim', 'n1', 'sim/alice');
  await createNode('sim', 'n2', 'sim/alice');
});

afterAll(async () => {
  await reader?.stop();
  await signals?.close();
});

describe('the simulated signal channel', () => {
  it('connects a node as $connect does, and wakes it only for rows that wake an agent', async () => {
    await signals.connect({ org: 'sim', id: 'n1', creds: n1 });
    expect(await nodeConnections('sim', 'n1')).toHaveLength(1);
    expect(await nodeConnections('sim', 'n2')).toEqual([]);

    // The node's own agreement row wakes nobody; its owner's write of its policy wakes it.
    const agreement = await invoke(putNodeAgreement, {
      auth: n1,
      path: { organization: 'sim', node: 'n1', agid: 'a1' },
      body: {
        services: [],
        agreementService: { orgid: 'sim', pattern: '', url: 'sim/svc' },
        state: 'Finalized Agreement',
      },
    });
    expect(agreement.status).toBe(201);
    await reader.settled();
    expect(woken).toEqual([]);
    const policy = await invoke(putNodePolicy, {
      auth: alice,
      path: { organization: 'sim', node: 'n1' },
      body: { label: 'p', properties: [{ name: 'fleet', value: 'sim' }] },
    });
    expect(policy.status).toBe(201);
    await reader.settled();
    expect(woken).toEqual(['sim/n1']);
    expect(signals.posts()).toBe(1);
  });

  it('refuses a user, as the channel does (403)', async () => {
    await expect(signals.connect({ org: 'sim', id: 'alice', creds: alice })).rejects.toThrow(/403/);
  });
});
