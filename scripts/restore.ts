import { existsSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { RestoreRefused, readManifest, restoreTable } from '#tables/backup/restore';
import {
  checkReachable,
  integerOption,
  progressLine,
  targetFrom,
  UsageError,
} from './local/backup-target.ts';

/**
 * `npm run restore -- <file> [--local | --endpoint URL | --region R] [--table T] [--force]
 * [--create-table] [--concurrency N]`: loads a file of `npm run backup` into an empty table
 * (docs/operations.md, "Back up and restore"; tables/backup/restore.ts).
 */
async function main(argv: string[]): Promise<number> {
  const program = new Command('npm run restore --')
    .description('Load a backup of npm run backup into an empty table.')
    .argument('<file>', 'the backup file')
    .option('--table <name>', 'the table (default: EXCHANGE_TABLE, else exchange)')
    .option('--local', "npm start's DynamoDB Local (localhost:EXCHANGE_DYNAMODB_PORT, 8000)")
    .option('--endpoint <url>', 'another DynamoDB (default: DYNAMODB_ENDPOINT; without either: AWS)')
    .option('--region <region>', 'the AWS region (default: AWS_REGION)')
    .option('--force', 'write into a table that holds items (same keys are replaced, others stay)')
    .option('--create-table', 'create the table first if missing (DynamoDB Local; on AWS the stack makes it)')
    .option(
      '--concurrency <n>',
      'BatchWriteItem calls in flight, 1 to 64',
      integerOption('concurrency', 1, 64),
      8,
    )
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  program.parse(argv, { from: 'user' });
  const options = program.opts<{
    table?: string;
    local?: boolean;
    endpoint?: string;
    region?: string;
    force?: boolean;
    createTable?: boolean;
    concurrency: number;
  }>();
  const file = program.args[0] as string;
  if (!existsSync(file)) throw new UsageError(`${file}: no such file`);
  const manifest = await readManifest(file);
  const target = targetFrom(options);
  if (options.createTable) {
    if (!target.where.startsWith('DynamoDB Local'))
      throw new UsageError(
        '--create-table is for DynamoDB Local: on AWS, deploy the stack, which makes the table',
      );
    process.env.DYNAMODB_ENDPOINT = target.where.replace('DynamoDB Local at ', '');
    // The launcher's own table creation, without the stream: DynamoDB Local keeps every stream
    // record and slows as they pile up (20,000 items restored at 30 a second instead of over 1,000);
    // npm start adds the stream when it starts on the table. Imported only now: the table client
    // reads DYNAMODB_ENDPOINT when it loads.
    const { createTableIfMissing } = await import('#tables/create-table');
    await createTableIfMissing(target.table, { stream: false });
  }
  await checkReachable(target);
  console.error(
    `restore: ${manifest.items} items of ${manifest.source.table} (${manifest.source.where}, ${manifest.finishedAt}) into ${target.table} (${target.where})`,
  );
  const progress = progressLine('restore');
  const started = performance.now();
  await restoreTable({
    ...target,
    file,
    force: options.force === true,
    concurrency: options.concurrency,
    progress: progress.update,
  });
  progress.done(manifest.items);
  console.log(
    `${target.table}: ${manifest.items} items restored from ${file} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const keys = Object.keys(manifest.secretKeys);
  if (keys.length > 0) console.log(`Its sealed values open with: ${keys.join(', ')}`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof CommanderError) process.exit(error.exitCode);
    console.error(`restore: ${error instanceof Error ? error.message : error}`);
    process.exit(error instanceof UsageError || error instanceof RestoreRefused ? 2 : 1);
  },
);
