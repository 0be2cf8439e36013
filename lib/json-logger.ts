/**
 * The agent's and the agbot's structured log lines (one JSON object per line on stdout; the
 * Exchange's Lambdas log through Powertools, log.ts). Callers pass only what is safe to keep:
 * never a request body, a header or a token.
 */
export type Fields = Record<string, unknown>;
type Level = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
}

const RANK: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export function createLogger(
  minimum: Level = 'info',
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Logger {
  const emit =
    (level: Level) =>
    (msg: string, fields: Fields = {}) => {
      if (RANK[level] < RANK[minimum]) return;
      write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }));
    };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/** For tests: drops everything. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
