import { assertMasterKeyPrivate } from '#lib/secrets/local-key-provider';
import { masterKeyFile } from '#lib/secrets/provider';
import { startDynamoDbLocal } from './local/dynamodb-local.ts';
import { readSettings } from './local/settings.ts';

/**
 * `npm run rotate-secrets-key`: re-seals every secret under a new local master key (README,
 * "Secrets"). Stop `npm start` first. Without DYNAMODB_ENDPOINT it starts DynamoDB Local on the
 * data dir itself (the same settings as `npm start`) and stops it afterwards.
 */
async function main(): Promise<number> {
  const settings = readSettings();
  const file = masterKeyFile({ ...process.env, EXCHANGE_DATA_DIR: settings.dataDir });
  // Before starting anything: a key readable by others is refused with the chmod that fixes it.
  assertMasterKeyPrivate(file);
  assertMasterKeyPrivate(`${file}.next`);
  process.env.EXCHANGE_TABLE ??= settings.table;
  let stop: (() => Promise<void>) | undefined;
  if (!process.env.DYNAMODB_ENDPOINT) {
    const dynamo = await startDynamoDbLocal({ port: settings.dynamoPort, dataDir: settings.dynamoDir });
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
    stop = dynamo.stop;
  }
  try {
    // Imported only now: the table client reads DYNAMODB_ENDPOINT when it loads.
    const { rotateMasterKey } = await import('./local/rotate-master-key.ts');
    const result = await rotateMasterKey(file);
    console.log(`Re-sealed ${result.resealed} secrets (${result.skipped} were already under the new key).`);
    if (!result.swapped) {
      console.error(`Not swapped: ${result.unreadable.length} secrets are sealed under neither key:`);
      for (const name of result.unreadable) console.error(`  ${name}`);
      return 1;
    }
    console.log(`The new master key is ${file}; the old one is kept as ${result.retired}.`);
    return 0;
  } finally {
    await stop?.();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
