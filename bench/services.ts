/**
 * GET service alone: `npx tsx bench/services.ts` starts its own DynamoDB Local, runs
 * bench/services-run.ts, prints the figures and stops it. `npm run bench` runs the same measure.
 */
import { startBenchDynamo } from './env.ts';

const dynamo = await startBenchDynamo();
try {
  // Only now: tables/client.ts reads the environment set above when it loads.
  const { runServicesBench, servicesMarkdown } = await import('./services-run.ts');
  console.log(servicesMarkdown(await runServicesBench((text) => console.log(`[bench] ${text}`))));
} finally {
  await dynamo.stop();
}
