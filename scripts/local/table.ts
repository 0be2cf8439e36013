import { corruptData } from './data-dir.ts';
import { LocalStackError } from './dynamodb-local.ts';

/**
 * Creates the table if missing and writes the bootstrap records (orgs root and IBM, user
 * root/root); a table from before principal items gets them once (authentication reads them), and
 * nodes from before the searches' index get its keys (tables/node-search-backfill.ts).
 * The data layer reads DYNAMODB_ENDPOINT when first imported, hence the late imports.
 */
export async function prepareTable(options: {
  endpoint: string;
  table: string;
  /** DynamoDB Local's files, when npm start runs it: named when its requests fail. */
  dataDir: string | undefined;
}): Promise<void> {
  process.env.DYNAMODB_ENDPOINT = options.endpoint;
  process.env.EXCHANGE_TABLE = options.table;
  process.env.AWS_REGION ??= 'local';
  const { createTableIfMissing } = await import('#tables/create-table');
  const { bootstrap } = await import('#tables/bootstrap');
  const { backfillPrincipalsOnce } = await import('#tables/identity/backfill');
  const { backfillNodeSearch } = await import('#tables/node/search-backfill');
  try {
    await createTableIfMissing(options.table);
    await bootstrap();
    await backfillPrincipalsOnce();
    await backfillNodeSearch();
  } catch (error) {
    const reason = (error as Error).message;
    if (options.dataDir === undefined)
      throw new LocalStackError(
        `The DynamoDB at ${options.endpoint} (EXCHANGE_DYNAMODB_ENDPOINT) failed: ${reason}`,
      );
    // DynamoDB Local answers every request with an internal failure when its files are damaged.
    throw corruptData(options.dataDir, `DynamoDB Local: ${reason}`);
  }
}
