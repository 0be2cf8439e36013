/**
 * Node searches and heartbeats alone: `npx tsx bench/searches.ts` starts its own DynamoDB Local,
 * runs bench/searches-run.ts, prints the figures and stops it. `npm run bench` runs the same.
 */
import { startBenchDynamo } from './env.ts';

const dynamo = await startBenchDynamo();
try {
  // Only now: tables/client.ts reads the environment set above when it loads.
  const { runSearchBench, searchesMarkdown } = await import('./searches-run.ts');
  console.log(searchesMarkdown(await runSearchBench((text) => console.log(`[bench] ${text}`))));
} finally {
  await dynamo.stop();
}
