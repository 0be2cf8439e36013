import { join, resolve } from 'node:path';
import { LocalStackError } from './dynamodb-local.ts';

/** What `npm start` runs with, from the environment (defaults: .data, ports 3090/3091/3092/8000, table exchange). */
interface LocalSettings {
  dataDir: string;
  dynamoDir: string;
  passwordFile: string;
  httpPort: number;
  lambdaPort: number;
  /** The signal channel's WebSocket port (docs/signals.md): EXCHANGE_SIGNALS_PORT, else two up. */
  signalsPort: number;
  dynamoPort: number;
  /**
   * EXCHANGE_DYNAMODB_ENDPOINT: a DynamoDB already running (another DynamoDB Local, a container),
   * used instead of starting one; npm start neither starts nor stops it. Undefined: its own.
   */
  dynamoEndpoint: string | undefined;
  table: string;
  /** From EXCHANGE_ROOT_PW; undefined = generate or reuse the one in the data dir. */
  rootPassword: string | undefined;
}

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535) {
    throw new LocalStackError(`${name} must be a port number between 1 and 65535, not '${raw}'.`);
  }
  return value;
}

function endpoint(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/')
    throw new LocalStackError(
      `${name} must be an http(s) address such as http://localhost:8000, not '${raw}'.`,
    );
  return raw.replace(/\/$/, '');
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): LocalSettings {
  const dataDir = resolve(env.EXCHANGE_DATA_DIR || '.data');
  const httpPort = port(env, 'EXCHANGE_PORT', 3090);
  // serverless-offline also needs a port for its Lambda invoke API: the next one up.
  if (httpPort >= 65534)
    throw new LocalStackError('EXCHANGE_PORT must leave room for the next two ports (Lambda API, signals).');
  return {
    dataDir,
    dynamoDir: join(dataDir, 'dynamodb'),
    passwordFile: join(dataDir, 'root-password'),
    httpPort,
    lambdaPort: httpPort + 1,
    signalsPort: port(env, 'EXCHANGE_SIGNALS_PORT', httpPort + 2),
    dynamoPort: port(env, 'EXCHANGE_DYNAMODB_PORT', 8000),
    dynamoEndpoint: endpoint(env, 'EXCHANGE_DYNAMODB_ENDPOINT'),
    table: env.EXCHANGE_TABLE || 'exchange',
    rootPassword: env.EXCHANGE_ROOT_PW || undefined,
  };
}
