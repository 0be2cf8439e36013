/**
 * POST deployment policy alone: `npx tsx bench/deployment-policies.ts` starts its own DynamoDB
 * Local, runs bench/deployment-policies-run.ts, prints the figures and stops it.
 */
import { startBenchDynamo } from './env.ts';

const dynamo = await startBenchDynamo();
try {
  // Only now: tables/client.ts reads the environment set above when it loads.
  const { policyMarkdown, runPolicyBench } = await import('./deployment-policies-run.ts');
  console.log(policyMarkdown(await runPolicyBench((text) => console.log(`[bench] ${text}`))));
} finally {
  await dynamo.stop();
}
