/**
 * 200 nodes accepting at once, for both agbots (issue 26): `npm run bench:agbot-burst`. Starts
 * DynamoDB Local (behind the counting proxy of bench/fleet-proxies.ts) and serverless-offline
 * with the `agbotRound` function fed by the local stream reader, as `npm start` does; registers
 * AGBOT_BURST_NODES (200) scripted nodes (agbot/test-support/scripted-node.ts) that accept every
 * proposal at once and record the agreement on the replyack; adds one deployment policy that
 * matches them all and measures the time until every agreement is finalized (the Exchange's
 * agbot agreement rows). Then the same with the standalone program (its defaults: a round every
 * 10 s, and at once on the signal channel's "look now") on nodes of its own. Prints, for each:
 * the time, the agbot's rounds (and the function's invocations), and the whole hub's DynamoDB
 * calls meanwhile (the nodes' own requests included).
 */
import { join } from 'node:path';
import { createLogger } from '#lib/json-logger';
import { buildReply } from '#lib/protocol/build-message';
import { signDeployment } from '#lib/protocol/deployment-signature';
import { generateMessagingKeys } from '#lib/protocol/keys';
import { createAgbot } from '../agbot/agbot.ts';
import { loadAgbotConfig } from '../agbot/config.ts';
import { exchangeCall, ScriptedNode } from '../agbot/test-support/scripted-node.ts';
import { startAgbotHub } from './agbot-hub.ts';
import { ROOT_PASSWORD } from './env.ts';

const NODES = Number(process.env.AGBOT_BURST_NODES || 200);
const SERVICE = { url: 'burst.svc', version: '1.0.0', arch: 'amd64' };
const round = (value: number, digits = 1) => Number(value.toFixed(digits));

async function main() {
  const hub = await startAgbotHub('agbot-burst', { HZN_AGBOT_LOG_LEVEL: 'info' });
  const { counts, scratch } = hub;
  const { testSigner } = await import('../test/e2e/support/agbot-org.ts');
  try {
    const root = { user: 'root/root', secret: ROOT_PASSWORD };
    const call = (auth: typeof root, method: string, path: string, body?: unknown) =>
      exchangeCall(hub.baseUrl, auth, method, path, body);
    const must = async (what: string, answer: Promise<{ status: number; body: unknown }>) => {
      const { status, body } = await answer;
      if (status >= 300) throw new Error(`${what} → ${status} ${JSON.stringify(body)}`);
    };
    const keys = generateMessagingKeys();
    const signer = testSigner();

    /** An org with the service and NODES registered nodes; then its policy, timed until all are finalized. */
    async function burst(org: string, agbot: string) {
      await must('org', call(root, 'POST', `/orgs/${org}`, { label: org, description: org }));
      const owner = { user: `${org}/owner`, secret: 'owner-pw-burst' };
      await must(
        'user',
        call(root, 'POST', `/orgs/${org}/users/owner`, {
          password: owner.secret,
          admin: true,
          email: 'owner@example.com',
        }),
      );
      const deployment = JSON.stringify({ services: { s: { image: 'busybox:latest' } } });
      await must(
        'service',
        call(owner, 'POST', `/orgs/${org}/services`, {
          label: SERVICE.url,
          ...SERVICE,
          sharable: 'multiple',
          deployment,
          deploymentSignature: signDeployment(deployment, signer.privateKey),
        }),
      );
      const nodes = Array.from(
        { length: NODES },
        (_, i) => new ScriptedNode(hub.baseUrl, org, `n${i}`, undefined, keys),
      );
      for (let i = 0; i < nodes.length; i += 10)
        await Promise.all(
          nodes
            .slice(i, i + 10)
            .map((n) => n.register(owner, { properties: [{ name: 'burst', value: org }] })),
        );
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      const done = new Set<string>();
      const nodeLoop = async (node: ScriptedNode) => {
        for (const received of await node.poll()) {
          const m = received.message;
          if (m.type === 'proposal')
            await node.send(received, buildReply(m.agreementId, true, node.creds.user));
          if (m.type === 'replyack' && m.decision) {
            await node.putAgreement(m.agreementId, { org, url: SERVICE.url });
            done.add(node.id);
          }
        }
      };
      counts.calls.clear();
      counts.counting = true;
      const invocations = hub.invocations();
      const started = performance.now();
      await must(
        'policy',
        call(owner, 'POST', `/orgs/${org}/business/policies/burst`, {
          label: 'burst',
          service: {
            name: SERVICE.url,
            org,
            arch: SERVICE.arch,
            serviceVersions: [{ version: SERVICE.version }],
          },
          constraints: [`burst == ${org}`],
        }),
      );
      const deadline = Date.now() + 900_000;
      while (done.size < NODES) {
        if (Date.now() > deadline) throw new Error(`${agbot}: only ${done.size} agreements in 15 minutes`);
        const pending = nodes.filter((n) => !done.has(n.id));
        for (let i = 0; i < pending.length; i += 20)
          await Promise.all(pending.slice(i, i + 20).map(nodeLoop));
        // Nodes read their mailbox about once a second, not in a tight loop that would starve the
        // agbot's own requests to the same server (real agents read it when their feed says so).
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      const seconds = (performance.now() - started) / 1000;
      counts.counting = false;
      const [agbotOrg, agbotId] = agbot.split('/');
      const rows = await call(root, 'GET', `/orgs/${agbotOrg}/agbots/${agbotId}/agreements`);
      const finalized = Object.values(
        (rows.body?.agreements ?? {}) as Record<string, { state: string; service: { orgid: string } }>,
      ).filter((a) => a.state === 'Finalized Agreement' && a.service.orgid === org).length;
      if (finalized !== NODES) throw new Error(`${agbot}: ${finalized} finalized rows, not ${NODES}`);
      return {
        seconds: round(seconds),
        dynamoCalls: [...counts.calls.values()].reduce((a, b) => a + b, 0),
        streamInvocations: hub.invocations() - invocations,
      };
    }

    const outputBefore = hub.output().length;
    const inStack = await burst('burst-stack', 'IBM/agbot');
    const rounds = [
      ...hub
        .output()
        .slice(outputBefore)
        .matchAll(/"msg":"agbot rounds","rounds":(\d+)/g),
    ];
    const inStackRounds = rounds.reduce((n, m) => n + Number(m[1]), 0);

    // The standalone program beside it, as `EXCHANGE_AGBOT=standalone` runs it (its own identity).
    await hub.stopStream();
    const token = 'bench-standalone-token';
    await must(
      'standalone agbot',
      call(root, 'PUT', '/orgs/IBM/agbots/standalone', {
        token,
        name: 'standalone',
        msgEndPoint: '',
        publicKey: '',
      }),
    );
    const config = loadAgbotConfig({
      HZN_EXCHANGE_URL: `${hub.baseUrl}/v1`,
      HZN_AGBOT_ID: 'IBM/standalone',
      HZN_AGBOT_TOKEN: token,
      HZN_AGBOT_DATA_DIR: join(scratch, 'standalone'),
      HZN_AGBOT_PORT: '0',
      HZN_AGBOT_SERVE_ALL: 'true',
    });
    const standaloneAgbot = createAgbot({ config, log: createLogger('error') });
    await standaloneAgbot.start();
    hub.onStop(() => standaloneAgbot.stop());
    const roundsBefore = standaloneAgbot.status().rounds;
    const requestsBefore = standaloneAgbot.exchangeRequests();
    const standalone = await burst('burst-alone', 'IBM/standalone');
    console.log(
      JSON.stringify(
        {
          nodes: NODES,
          inStack: {
            policyToAllFinalizedSeconds: inStack.seconds,
            invocations: inStack.streamInvocations,
            rounds: inStackRounds,
            dynamoCallsOfTheHub: inStack.dynamoCalls,
          },
          standalone: {
            policyToAllFinalizedSeconds: standalone.seconds,
            rounds: standaloneAgbot.status().rounds - roundsBefore,
            exchangeRequests: standaloneAgbot.exchangeRequests() - requestsBefore,
            dynamoCallsOfTheHub: standalone.dynamoCalls,
          },
        },
        null,
        2,
      ),
    );
  } finally {
    await hub.stop();
  }
}

await main();
process.exit(0);
