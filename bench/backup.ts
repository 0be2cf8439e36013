/**
 * `npm run bench:backup`: npm run backup and npm run restore (tables/backup/) on a hub of
 * BACKUP_NODES nodes (default 1000; each node is two items, its record and its principal) in this
 * machine's in-memory DynamoDB Local. Both run as the operator runs them, as processes of their
 * own (`scripts/backup.ts`, `scripts/restore.ts`); the figures are their own timings (from the
 * first call to DynamoDB to the last), the process wall times, and the file's bytes.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startBenchDynamo } from './env.ts';

const nodes = Number(process.env.BACKUP_NODES ?? 1000);
if (!Number.isInteger(nodes) || nodes < 10)
  throw new Error(`BACKUP_NODES must be an integer of at least 10, not ${process.env.BACKUP_NODES}`);
const segments = process.env.BACKUP_SEGMENTS ?? '8';
const root = resolve(import.meta.dirname, '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const run = promisify(execFile);

const dynamo = await startBenchDynamo();
const dir = mkdtempSync(join(tmpdir(), 'bench-backup-'));
try {
  // Only now: tables/client.ts reads the environment set above when it loads.
  const { seedBase, growNodes } = await import('./seed.ts');
  const table = process.env.EXCHANGE_TABLE as string;
  const seeding = performance.now();
  await seedBase();
  await growNodes(nodes);
  console.log(`[bench] seeded ${nodes} nodes in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
  const file = join(dir, 'hub.jsonl.gz');
  const env = { ...process.env, DYNAMODB_ENDPOINT: '' };
  const timed = async (script: string, args: string[]) => {
    const started = performance.now();
    const { stdout } = await run(
      tsx,
      [join(root, 'scripts', script), ...args, '--endpoint', dynamo.endpoint],
      {
        cwd: root,
        env,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const own = Number(
      / ([\d.]+) s$/m.exec(stdout.split('\n')[0] ?? '')?.[1] ?? /in ([\d.]+) s/.exec(stdout)?.[1],
    );
    return { wall: (performance.now() - started) / 1000, own, stdout };
  };
  const backup = await timed('backup.ts', [file, '--table', table, '--segments', segments]);
  const items = Number(/: (\d+) items of/.exec(backup.stdout)?.[1]);
  const bytes = statSync(file).size;
  const restore = await timed('restore.ts', [file, '--table', `${table}-restored`, '--create-table']);
  console.log(
    `\n| Nodes | Items | File (bytes) | Backup (s) | Restore (s) | Backup, process (s) | Restore, process (s) |`,
  );
  console.log(
    '| ----: | ----: | -----------: | ---------: | ----------: | ------------------: | -------------------: |',
  );
  console.log(
    `| ${nodes} | ${items} | ${bytes} | ${backup.own.toFixed(1)} | ${restore.own.toFixed(1)} | ${backup.wall.toFixed(1)} | ${restore.wall.toFixed(1)} |`,
  );
  console.log(
    `\n${Math.round(items / backup.own)} items/s backed up (${segments} segments), ${Math.round(items / restore.own)} items/s restored; ${(bytes / items).toFixed(0)} bytes an item.`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
  await dynamo.stop();
}
