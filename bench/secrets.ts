/**
 * Secrets alone: `npx tsx bench/secrets.ts` starts its own DynamoDB Local, runs
 * bench/secrets-run.ts, prints the figures and stops it. `npm run bench` runs the same measure.
 */
import { startBenchDynamo } from './env.ts';

const dynamo = await startBenchDynamo();
try {
  // Only now: tables/client.ts reads the environment set above when it loads.
  const { runSecretsBench, secretsMarkdown } = await import('./secrets-run.ts');
  console.log(secretsMarkdown(await runSecretsBench((text) => console.log(`[bench] ${text}`))));
} finally {
  await dynamo.stop();
}
