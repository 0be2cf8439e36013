/**
 * The agbot alone: `npx tsx bench/agbot.ts` starts its own DynamoDB Local, runs
 * bench/agbot-run.ts, prints the figures and stops it. `npm run bench` runs the same measure.
 */
import { startBenchDynamo } from './env.ts';

const dynamo = await startBenchDynamo();
try {
  // Only now: tables/client.ts reads the environment set above when it loads.
  const { agbotMarkdown, runAgbotBench } = await import('./agbot-run.ts');
  const figures = await runAgbotBench((text) => console.log(`[bench] ${text}`), dynamo.endpoint);
  console.log(agbotMarkdown(figures));
} finally {
  await dynamo.stop();
}
