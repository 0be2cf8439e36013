/**
 * `npm run backfill-principals`: writes the principal items (tables/identity/backfill.ts) of a
 * table from before they existed, and repairs any that disagree with their records. Run it once
 * after deploying the code that reads them; it is idempotent and safe beside live traffic.
 * Environment: EXCHANGE_TABLE (default `exchange`), DYNAMODB_ENDPOINT for DynamoDB Local, else the
 * AWS region and credentials of the shell.
 */
import { backfillPrincipals } from '#tables/identity/backfill';

const started = performance.now();
const report = await backfillPrincipals();
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `principals: ${report.records} records, ${report.written} entries written, ${report.removed} removed (${seconds} s)`,
);
