import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Everything a command touches outside itself, so one run can be driven in-process by a test
 * (captured output, a given environment and stdin) exactly as the real process runs it.
 */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** The whole of stdin (for `-f-`). */
  readStdin(): Promise<string>;
  /** One line of stdin, undefined at EOF (for prompts). */
  readLine(): Promise<string | undefined>;
  /** The process environment before config files are applied. */
  env: Record<string, string | undefined>;
  cwd: string;
  home: string;
  /** Where `/etc` is (tests point it at a temp dir). */
  etcDir: string;
  now(): number;
  sleep(ms: number): Promise<void>;
}

let lines: AsyncIterator<string> | undefined;

export function processIo(): Io {
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    readLine: async () => {
      lines ??= createInterface({ input: process.stdin })[Symbol.asyncIterator]();
      const next = await lines.next();
      return next.done ? undefined : next.value;
    },
    env: process.env,
    cwd: process.cwd(),
    home: process.env.HOME ?? '',
    etcDir: '/etc',
    now: () => Date.now(),
    sleep: (ms) => sleep(ms).then(() => undefined),
  };
}
