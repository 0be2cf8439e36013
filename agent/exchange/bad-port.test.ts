import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent.ts';
import { type FakeExchange, startFakeExchange } from '../test-support/fake-exchange.ts';
import { NODE, newAgent, nodeKey, registerNode, tempDir } from '../test-support/harness.ts';

/**
 * Ports on the WHATWG "bad ports" list, which fetch refuses to connect to (issue 8). The agent
 * talks to the Exchange with node:http, so HZN_EXCHANGE_URL may name any of them.
 */
const BAD_PORTS = [4190, 6000, 10080, 6667, 5060];

let fake: FakeExchange | undefined;
let agent: Agent | undefined;
const dir = tempDir();
afterEach(async () => {
  await agent?.stop();
  await fake?.close();
  dir.remove();
});

/** A fake Exchange on the first bad port that is free here, or undefined when none is. */
async function onBadPort(): Promise<FakeExchange | undefined> {
  for (const port of BAD_PORTS) {
    try {
      return await startFakeExchange('2.154.0', port);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    }
  }
  return undefined;
}

describe('an Exchange on a port that fetch refuses', () => {
  it('registers, heartbeats and syncs through node:http', async (test) => {
    fake = await onBadPort();
    if (!fake) {
      console.warn(`skipped: none of the bad ports ${BAD_PORTS.join(', ')} is free on this machine`);
      return test.skip();
    }
    // The precondition: fetch itself refuses this URL.
    await expect(fetch(`${fake.url}/admin/version`)).rejects.toThrow();

    agent = await newAgent(fake.url, dir.path, { pollIntervalMs: 100 });
    await registerNode(agent, fake);
    await agent.start();
    await expect.poll(() => fake?.nodes.get(nodeKey)?.lastHeartbeat, { timeout: 30_000 }).toBeTruthy();
    const write = await agent.app.inject({
      method: 'POST',
      url: '/node/userinput',
      payload: [{ serviceOrgid: NODE.org, serviceUrl: 's', inputs: [{ name: 'a', value: 1 }] }],
    });
    expect(write.statusCode).toBe(201);
    expect(fake.nodes.get(nodeKey)?.userInput).toHaveLength(1);
    const status = (await agent.app.inject({ method: 'GET', url: '/status' })).json();
    expect(status.connectivity).toEqual({ [`${fake.url}/`]: true });
  });
});
