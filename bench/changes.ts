/**
 * POST /changes alone: `npx tsx bench/changes.ts` starts its own DynamoDB Local, runs
 * bench/changes-run.ts, prints the figures and stops it. `npm run bench` runs the same measure.
 */
import { startBenchDynamo } from './env.ts';

const dynamo = await startBenchDynamo();
try {
  // Only now: tables/client.ts reads the environment set above when it loads.
  const { changesMarkdown, runChangesBench } = await import('./changes-run.ts');
  console.log(changesMarkdown(await runChangesBench((text) => console.log(`[bench] ${text}`))));
} finally {
  await dynamo.stop();
}
