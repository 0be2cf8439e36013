import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { basicAuthHeader } from '#lib/auth/basic';
import { agbotExchange } from '../../agbot/exchange.ts';
import { serveOrg } from '../../agbot/serve-all.ts';
import { startAgbotStream } from './agbot-stream.ts';
import { httpRequest } from './http-request.ts';
import { spawnGroup } from './process-group.ts';

/** The local stack's agbot: the built-in one (multi-tenant, org IBM), so it may serve every org. */
export const LOCAL_AGBOT = { org: 'IBM', id: 'agbot' } as const;

/** `EXCHANGE_AGBOT`: the in-stack agbot (default), the standalone program, or none. */
export type LocalAgbotMode = 'in-stack' | 'standalone' | 'off';

export function localAgbotMode(env: NodeJS.ProcessEnv): LocalAgbotMode {
  const value = env.EXCHANGE_AGBOT ?? '';
  if (value === 'off' || value === 'standalone') return value;
  return 'in-stack';
}

export interface LocalAgbotOptions {
  exchangeUrl: string;
  rootPassword: string;
  dataDir: string;
  dynamoEndpoint: string;
  table: string;
  /** serverless-offline's Lambda invoke API, `http://127.0.0.1:<EXCHANGE_PORT + 1>`. */
  lambdaUrl: string;
  /** The launcher's environment: EXCHANGE_AGBOT, HZN_AGBOT_POLL_SECONDS, HZN_AGBOT_PORT... */
  env: NodeJS.ProcessEnv;
}

export interface LocalAgbot {
  mode: Exclude<LocalAgbotMode, 'off'>;
  /** Resolves when the agbot stops by itself (the standalone program exiting); never for the in-stack one. */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * Makes sure the built-in agbot exists with its token kept sealed in the table (as initdb does),
 * serves the orgs that exist now, then runs the agbot:
 * - in the stack (default): serverless-offline already runs the `agbotRound` function and its
 *   schedule; this reads DynamoDB Local's stream and invokes the function as AWS would
 *   (scripts/local/agbot-stream.ts), and invokes it once now for a first round;
 * - standalone (`EXCHANGE_AGBOT=standalone`): `agbot/main.ts` in a process group of its own with
 *   each output line prefixed `[agbot] `, as the same agbot with the same token.
 * Nothing when EXCHANGE_AGBOT=off.
 */
export async function startLocalAgbot(options: LocalAgbotOptions): Promise<LocalAgbot | undefined> {
  const mode = localAgbotMode(options.env);
  if (mode === 'off') return undefined;
  const { ensureBuiltInAgbot } = await import('#tables/agbot/built-in');
  const token = await ensureBuiltInAgbot();
  await serveExistingOrgs(options, token);
  if (mode === 'in-stack') {
    const reader = await startAgbotStream({
      dynamoEndpoint: options.dynamoEndpoint,
      table: options.table,
      lambdaUrl: options.lambdaUrl,
    });
    await firstRound(options.lambdaUrl);
    return { mode, exited: new Promise(() => undefined), stop: reader.stop };
  }
  const dataDir = join(options.dataDir, 'agbot');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const tsx = createRequire(import.meta.url).resolve('tsx/cli');
  const started = spawnGroup(process.execPath, [tsx, 'agbot/main.ts'], {
    cwd: process.cwd(),
    env: {
      ...options.env,
      HZN_EXCHANGE_URL: options.exchangeUrl,
      HZN_AGBOT_ID: `${LOCAL_AGBOT.org}/${LOCAL_AGBOT.id}`,
      // The standalone program's interface (agbot/config.ts): its own process's environment only.
      HZN_AGBOT_TOKEN: token,
      HZN_AGBOT_DATA_DIR: dataDir,
      // Every org, and each org created later (the agbot sees it in its change feed).
      HZN_AGBOT_SERVE_ALL: options.env.HZN_AGBOT_SERVE_ALL ?? 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [started.child.stdout, started.child.stderr]) {
    if (stream) createInterface({ input: stream }).on('line', (line) => console.log(`[agbot] ${line}`));
  }
  return { mode, exited: started.exited, stop: started.stop };
}

/** An asynchronous invocation (as EventBridge's): the first round publishes the agbot's key. */
async function firstRound(lambdaUrl: string): Promise<void> {
  await httpRequest(`${lambdaUrl}/2015-03-31/functions/open-exchange-dev-agbotRound/invocations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-amz-invocation-type': 'Event' },
    body: '{}',
  }).catch(() => undefined);
}

/**
 * The orgs that exist now get their `*` served rows before the agbot starts: the change feed
 * that tells the agbot about new orgs keeps only 4 hours of history, so older orgs are listed
 * here (as root, who sees every org) and served with the agbot's own credentials.
 */
async function serveExistingOrgs(options: LocalAgbotOptions, token: string): Promise<void> {
  if ((options.env.HZN_AGBOT_SERVE_ALL ?? 'true') !== 'true') return;
  const response = await httpRequest(`${options.exchangeUrl}/orgs`, {
    method: 'GET',
    headers: { authorization: basicAuthHeader('root/root', options.rootPassword) },
  });
  if (response.status !== 200) return;
  const orgs = Object.keys((JSON.parse(response.text) as { orgs?: Record<string, unknown> }).orgs ?? {});
  const exchange = agbotExchange({
    baseUrl: options.exchangeUrl,
    org: LOCAL_AGBOT.org,
    id: LOCAL_AGBOT.id,
    token,
    timeoutMs: 10_000,
  });
  try {
    for (const org of orgs) await serveOrg(exchange, org);
  } finally {
    exchange.close();
  }
}
