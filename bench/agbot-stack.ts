/**
 * The agbot in the stack (docs/agbot.md, "In the stack"): `npm run bench:agbot`. Starts DynamoDB
 * Local (behind the counting proxy of bench/fleet-proxies.ts) and serverless-offline with the
 * `agbotRound` function, makes the built-in agbot as initdb does and reads DynamoDB Local's stream
 * as `npm start` does (scripts/local/agbot-stream.ts). Prints:
 * - policy added → proposal received at a scripted node (agbot/test-support/scripted-node.ts), the
 *   median of AGBOT_BENCH_TRIALS (10), for the in-stack agbot and for the standalone program (its
 *   defaults: a round every 10 s, and at once on the signal channel's "look now"), side by side;
 * - while idle for AGBOT_BENCH_IDLE_SECONDS (180): the function's invocations and the DynamoDB
 *   calls and capacity units of the whole hub (the agbot's rounds and the Exchange requests they
 *   make), per hour, and the monthly cost at list prices (bench/fleet-prices.ts).
 */
import { join } from 'node:path';
import { AGBOT_ROUND_FUNCTION } from '#functions/agbot-round/function';
import { createLogger } from '#lib/json-logger';
import { signDeployment } from '#lib/protocol/deployment-signature';
import { createAgbot } from '../agbot/agbot.ts';
import { loadAgbotConfig } from '../agbot/config.ts';
import { ScriptedNode } from '../agbot/test-support/scripted-node.ts';
import { startAgbotHub } from './agbot-hub.ts';
import { ROOT_PASSWORD } from './env.ts';
import { MINUTES_PER_MONTH, PRICES, PRICES_AS_OF } from './fleet-prices.ts';
import { median } from './stats.ts';

const TRIALS = Number(process.env.AGBOT_BENCH_TRIALS || 10);
const IDLE_S = Number(process.env.AGBOT_BENCH_IDLE_SECONDS || 180);
const ORG = 'agbot-bench';
const SERVICE = { url: 'hello.bench', version: '1.0.0', arch: 'amd64' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number, digits = 2) => Number(value.toFixed(digits));

async function main() {
  const hub = await startAgbotHub('agbot-stack');
  const { counts, scratch } = hub;
  const { httpClient } = await import('../test/support/http.ts');
  const { createOrg, createUser, expectStatus } = await import('../test/support/world.ts');
  const { testSigner } = await import('../test/e2e/support/agbot-org.ts');
  try {
    const http = httpClient(hub.baseUrl);
    const root = { user: 'root/root', secret: ROOT_PASSWORD };
    await createOrg({ http, root }, ORG);
    const owner = await createUser({ http, root }, ORG, 'owner');
    const deployment = JSON.stringify({ services: { hello: { image: 'busybox:latest' } } });
    const service = {
      label: SERVICE.url,
      ...SERVICE,
      sharable: 'multiple',
      deployment,
      deploymentSignature: signDeployment(deployment, testSigner().privateKey),
    };
    expectStatus(
      await http('POST', `/v1/orgs/${ORG}/services`, { auth: owner, body: service }),
      201,
      'service',
    );

    /** Policy added → the first proposal `agbotId` sends the node, ms. */
    async function trial(label: string, agbotId: string): Promise<number> {
      const node = new ScriptedNode(hub.baseUrl, ORG, `${label}-node`);
      await node.register(owner, { properties: [{ name: 'trial', value: label }] });
      await sleep(2_000);
      const body = {
        label,
        service: {
          name: SERVICE.url,
          org: ORG,
          arch: SERVICE.arch,
          serviceVersions: [{ version: SERVICE.version }],
        },
        constraints: [`trial == ${label}`],
      };
      const added = performance.now();
      expectStatus(
        await http('POST', `/v1/orgs/${ORG}/business/policies/${label}`, { auth: owner, body }),
        201,
        'policy',
      );
      await node.waitFor((m) => m.type === 'proposal', 60_000);
      const got = node.received.find((r) => r.message.type === 'proposal');
      if (got?.agbotId !== agbotId)
        throw new Error(`${label}: proposal from ${got?.agbotId}, not ${agbotId}`);
      return performance.now() - added;
    }

    const inStack: number[] = [];
    for (let i = 1; i <= TRIALS; i++) inStack.push(await trial(`s${i}`, 'IBM/agbot'));

    // Idle: nothing changes; only the schedule invokes the function.
    await sleep(5_000);
    const invocationsBefore = hub.invocations();
    counts.calls.clear();
    counts.readUnits.clear();
    counts.writeUnits.clear();
    counts.counting = true;
    await sleep(IDLE_S * 1000);
    counts.counting = false;
    const streamInvocations = hub.invocations() - invocationsBefore;
    // The idle rounds' own durations, as the function logs them ("agbot rounds", no stream records).
    const idleRounds = [
      ...hub.output().matchAll(/"msg":"agbot rounds","rounds":\d+,"records":0,"ms":(\d+)/g),
    ].map((m) => Number(m[1]));
    const idleRoundSeconds = (idleRounds.length > 0 ? median(idleRounds) : 200) / 1000;
    const perHour = (n: number) => (n * 3600) / IDLE_S;
    const sum = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);
    const calls = perHour(sum(counts.calls));
    const reads = perHour(sum(counts.readUnits));
    const writes = perHour(sum(counts.writeUnits));

    // The standalone program beside it, as `EXCHANGE_AGBOT=standalone` runs it (its own identity
    // here, so the in-stack agbot's proposals do not count).
    await hub.stopStream();
    const token = 'bench-standalone-token';
    expectStatus(
      await http('PUT', '/v1/orgs/IBM/agbots/standalone', {
        auth: root,
        body: { token, name: 'standalone', msgEndPoint: '', publicKey: '' },
      }),
      200,
      'standalone agbot',
    );
    const config = loadAgbotConfig({
      HZN_EXCHANGE_URL: `${hub.baseUrl}/v1`,
      HZN_AGBOT_ID: 'IBM/standalone',
      HZN_AGBOT_TOKEN: token,
      HZN_AGBOT_DATA_DIR: join(scratch, 'standalone'),
      HZN_AGBOT_PORT: '0',
      HZN_AGBOT_SERVE_ALL: 'true',
    });
    const standalone = createAgbot({ config, log: createLogger('error') });
    await standalone.start();
    hub.onStop(() => standalone.stop());
    await sleep(3_000);
    const standaloneMs: number[] = [];
    for (let i = 1; i <= TRIALS; i++) standaloneMs.push(await trial(`a${i}`, 'IBM/standalone'));

    // Cost of the idle hub's agbot, per month at list prices.
    const memoryGb = AGBOT_ROUND_FUNCTION.memorySize / 1024;
    const invocationsPerMonth = 60 * 24 * 30 + perHour(streamInvocations) * 24 * 30;
    const monthly = {
      'Lambda requests': invocationsPerMonth * PRICES.lambdaRequest,
      'Lambda GB-seconds': invocationsPerMonth * idleRoundSeconds * memoryGb * PRICES.lambdaGbSecond,
      'DynamoDB reads': reads * 24 * 30 * PRICES.readUnit,
      'DynamoDB writes': writes * 24 * 30 * PRICES.writeUnit,
    };
    console.log(
      JSON.stringify(
        {
          trials: TRIALS,
          policyToProposalMedianMs: {
            inStack: round(median(inStack), 0),
            standalone: round(median(standaloneMs), 0),
          },
          policyToProposalMs: {
            inStack: inStack.map((v) => round(v, 0)),
            standalone: standaloneMs.map((v) => round(v, 0)),
          },
          idle: {
            windowSeconds: IDLE_S,
            invocationsPerHour: { schedule: 60, stream: round(perHour(streamInvocations)) },
            dynamoCallsPerHour: round(calls),
            dynamoCallsByOperationPerHour: Object.fromEntries(
              [...counts.calls].map(([op, n]) => [op, round(perHour(n))]),
            ),
            readUnitsPerHour: round(reads),
            writeUnitsPerHour: round(writes),
          },
          idleRoundMedianMs: round(idleRoundSeconds * 1000, 0),
          monthlyIdleAgbotUsd: Object.fromEntries(Object.entries(monthly).map(([k, v]) => [k, round(v, 4)])),
          monthlyIdleAgbotTotalUsd: round(
            Object.values(monthly).reduce((a, b) => a + b, 0),
            4,
          ),
          pricesAsOf: PRICES_AS_OF,
          minutesPerMonth: MINUTES_PER_MONTH,
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
