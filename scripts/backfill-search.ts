/**
 * `npm run backfill-search`: gives the nodes of a table from before the searches' index (gsi2)
 * their index keys and agreement summary (tables/node/search-backfill.ts). Run it once after
 * deploying the code that adds the index; idempotent and safe beside live traffic.
 * Environment: EXCHANGE_TABLE (default `exchange`), DYNAMODB_ENDPOINT for DynamoDB Local, else the
 * AWS region and credentials of the shell.
 */
import { backfillNodeSearch } from '#tables/node/search-backfill';

const started = performance.now();
const completed = await backfillNodeSearch();
console.log(
  `node search keys: ${completed} nodes completed (${((performance.now() - started) / 1000).toFixed(1)} s)`,
);
