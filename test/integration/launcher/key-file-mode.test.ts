import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePorts, launch } from '#test/support/launcher';

const require = createRequire(import.meta.url);
const tsxCli = require.resolve('tsx/cli');
const KEY = `${Buffer.alloc(32, 7).toString('base64')}\n`;
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A data dir whose master key file has `mode`. */
function dataDirWithKey(mode: number): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'exchange-key-mode-'));
  dirs.push(dir);
  const file = join(dir, 'secrets-master-key');
  writeFileSync(file, KEY);
  chmodSync(file, mode);
  return { dir, file };
}

/** `npm run rotate-secrets-key` as a child: its exit code and output. */
function rotate(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const base = { ...process.env };
  for (const name of ['DYNAMODB_ENDPOINT', 'EXCHANGE_TABLE', 'EXCHANGE_SECRETS_MASTER_KEY_FILE'])
    delete base[name];
  const child = spawn(process.execPath, [tsxCli, 'scripts/rotate-secrets-key.ts'], {
    cwd: process.cwd(),
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

const fixLine = (file: string, mode: string) =>
  `${file} is readable by group or others (mode ${mode}); fix it with: chmod 600 ${file}`;

describe('a master key file readable by group or others (issue 23 item 9)', () => {
  it('stops npm start with exit code 1 and one line naming the file and the chmod', async () => {
    const { dir, file } = dataDirWithKey(0o644);
    const ports = await freePorts();
    const launched = launch({
      EXCHANGE_PORT: String(ports.http),
      EXCHANGE_DYNAMODB_PORT: String(ports.dynamo),
      EXCHANGE_DATA_DIR: dir,
    });
    expect(await launched.exited).toBe(1);
    const output = launched.output();
    expect(output).toContain(fixLine(file, '644'));
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain('Starting DynamoDB Local');
  }, 60_000);

  it('stops npm run rotate-secrets-key before it starts anything or touches the key', async () => {
    const { dir, file } = dataDirWithKey(0o640);
    const ports = await freePorts();
    const { code, output } = await rotate({
      EXCHANGE_DATA_DIR: dir,
      EXCHANGE_DYNAMODB_PORT: String(ports.dynamo),
    });
    expect(code, output).toBe(1);
    expect(output.trim()).toBe(fixLine(file, '640'));
    expect(existsSync(`${file}.next`)).toBe(false);
  }, 60_000);
});
