import { resolve } from 'node:path';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { masterKeyFile } from '#lib/secrets/provider';
import { readSettings } from './settings.ts';

/**
 * The table `npm run backup` and `npm run restore` work on, and the DynamoDB it lives in
 * (docs/operations.md, "Back up and restore"): `--local` is `npm start`'s DynamoDB Local
 * (localhost:EXCHANGE_DYNAMODB_PORT, 8000 by default), `--endpoint` (or DYNAMODB_ENDPOINT) any
 * other; without either, AWS in `--region` (or AWS_REGION) with the shell's credentials.
 */
export interface TargetOptions {
  table?: string;
  local?: boolean;
  endpoint?: string;
  region?: string;
}

export interface Target {
  client: DynamoDBClient;
  table: string;
  /** For messages and the manifest: `DynamoDB Local at http://localhost:8000`, `AWS us-east-1`. */
  where: string;
  /** The key its hub seals secrets with (the manifest's `secretsKey`). */
  secretsKey: string;
}

/** A mistake in the command line or the environment, said in one line. */
export class UsageError extends Error {}

export function targetFrom(options: TargetOptions, env: NodeJS.ProcessEnv = process.env): Target {
  if (options.local && options.endpoint)
    throw new UsageError('--local and --endpoint name two places: give one');
  const settings = readSettings(env);
  const endpoint = options.local
    ? `http://localhost:${settings.dynamoPort}`
    : options.endpoint || env.DYNAMODB_ENDPOINT || undefined;
  if (endpoint && !/^https?:\/\/[^/\s]+\/?$/.test(endpoint))
    throw new UsageError(
      `--endpoint must be a URL such as http://localhost:8000, not ${JSON.stringify(endpoint)}`,
    );
  const table = options.table ?? settings.table;
  if (!/^[A-Za-z0-9_.-]{3,255}$/.test(table))
    throw new UsageError(
      `--table must be a DynamoDB table name (3-255 of A-Z a-z 0-9 _ . -), not ${JSON.stringify(table)}`,
    );
  if (endpoint)
    return {
      client: new DynamoDBClient({
        endpoint,
        region: env.AWS_REGION ?? 'local',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        maxAttempts: 5,
      }),
      table,
      where: `DynamoDB Local at ${endpoint}`,
      secretsKey: `local master key file ${resolve(masterKeyFile({ ...env, EXCHANGE_DATA_DIR: settings.dataDir }))}`,
    };
  const region = options.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  if (!region)
    throw new UsageError(
      'no AWS region: pass --region (or set AWS_REGION), or --local for the DynamoDB Local of npm start',
    );
  return {
    client: new DynamoDBClient({ region, maxAttempts: 8 }),
    table,
    where: `AWS ${region}`,
    secretsKey: `KMS key ${env.EXCHANGE_SECRETS_KMS_KEY_ID || `alias/${table}-secrets`} in ${region}`,
  };
}

/** Fails with one line when the table cannot be reached: no such table, nothing listening. */
export async function checkReachable(target: Target): Promise<void> {
  try {
    await target.client.send(new DescribeTableCommand({ TableName: target.table }));
  } catch (error) {
    const { name, message, code } = error as { name?: string; message?: string; code?: string };
    if (name === 'ResourceNotFoundException')
      throw new UsageError(`no table ${target.table} in ${target.where} (--table names another)`);
    if (code === 'ECONNREFUSED' || /ECONNREFUSED/.test(message ?? ''))
      throw new UsageError(
        `${target.where}: nothing answers there; is npm start (or DynamoDB Local) running?`,
      );
    throw error;
  }
}

/** `--segments 8`: an integer within bounds, or a message naming the option. */
export function integerOption(name: string, min: number, max: number) {
  return (raw: string): number => {
    const value = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || value < min || value > max)
      throw new UsageError(`--${name} must be an integer from ${min} to ${max}, not ${JSON.stringify(raw)}`);
    return value;
  };
}

/** Progress on stderr, at most once a second, and once at the end (unless just said). */
export function progressLine(label: string): {
  update: (items: number) => void;
  done: (items: number) => void;
} {
  const started = performance.now();
  let last = 0;
  let said = -1;
  const line = (items: number) => {
    said = items;
    const seconds = (performance.now() - started) / 1000;
    const rate = Math.round(items / Math.max(seconds, 0.001)).toLocaleString('en-US');
    process.stderr.write(
      `${label}: ${items.toLocaleString('en-US')} items, ${seconds.toFixed(1)} s (${rate} items/s)\n`,
    );
  };
  return {
    update: (items) => {
      const now = performance.now();
      if (now - last < 1000) return;
      last = now;
      line(items);
    },
    done: (items) => {
      if (items !== said) line(items);
    },
  };
}
