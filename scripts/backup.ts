import { existsSync, statSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { backupTable } from '#tables/backup/backup';
import {
  checkReachable,
  integerOption,
  progressLine,
  targetFrom,
  UsageError,
} from './local/backup-target.ts';

/**
 * `npm run backup -- [file] [--local | --endpoint URL | --region R] [--table T] [--segments N]`:
 * writes every item of the hub's table, secrets still sealed, to a gzip file of JSON lines with a
 * manifest first (docs/operations.md, "Back up and restore"; tables/backup/format.ts).
 */
async function main(argv: string[]): Promise<number> {
  const program = new Command('npm run backup --')
    .description('Write every item of the hub to a gzip file of JSON lines, its manifest first.')
    .argument('[file]', 'the backup file to write (default: backup-<table>-<time>.jsonl.gz)')
    .option('--table <name>', 'the table (default: EXCHANGE_TABLE, else exchange)')
    .option('--local', "npm start's DynamoDB Local (localhost:EXCHANGE_DYNAMODB_PORT, 8000)")
    .option('--endpoint <url>', 'another DynamoDB (default: DYNAMODB_ENDPOINT; without either: AWS)')
    .option('--region <region>', 'the AWS region (default: AWS_REGION)')
    .option('--segments <n>', 'parallel scan segments, 1 to 1000', integerOption('segments', 1, 1000), 8)
    .option('--overwrite', 'replace the file if it exists')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  program.parse(argv, { from: 'user' });
  const options = program.opts<{
    table?: string;
    local?: boolean;
    endpoint?: string;
    region?: string;
    segments: number;
    overwrite?: boolean;
  }>();
  const target = targetFrom(options);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = program.args[0] ?? `backup-${target.table}-${stamp}.jsonl.gz`;
  if (existsSync(file) && !options.overwrite)
    throw new UsageError(`${file} exists: name another file, or add --overwrite`);
  await checkReachable(target);
  const progress = progressLine('backup');
  const started = performance.now();
  const manifest = await backupTable({
    ...target,
    file,
    segments: options.segments,
    progress: progress.update,
  });
  progress.done(manifest.items);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${file}: ${manifest.items} items of ${target.table} (${target.where}), ${statSync(file).size} bytes, ${seconds.toFixed(1)} s`,
  );
  for (const [kind, count] of Object.entries(manifest.kinds)) console.log(`  ${kind}: ${count}`);
  console.log(`Secrets here are sealed with the ${manifest.secretsKey}.`);
  const keys = Object.entries(manifest.secretKeys);
  if (keys.length > 0) {
    console.log('Sealed values need these keys to open (keep them with the file):');
    for (const [keyId, count] of keys) console.log(`  ${keyId}: ${count}`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof CommanderError) process.exit(error.exitCode);
    console.error(`backup: ${error instanceof Error ? error.message : error}`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
