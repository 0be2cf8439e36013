import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { basicAuthHeader } from '#lib/auth/basic';
import { agbotExchange } from '../../agbot/exchange.ts';
import { serveOrg } from '../../agbot/serve-all.ts';
import { LocalStackError } from './dynamodb-local.ts';
import { httpRequest } from './http-request.ts';
import { keptSecret } from './kept-secret.ts';
import { type GroupChild, spawnGroup } from './process-group.ts';

/** The local stack's agbot: multi-tenant (org IBM), so it may serve every org. */
const LOCAL_AGBOT = { org: 'IBM', id: 'agbot' } as const;

interface LocalAgbotOptions {
  exchangeUrl: string;
  rootPassword: string;
  dataDir: string;
  /** The launcher's environment: HZN_AGBOT_POLL_SECONDS, HZN_AGBOT_PORT... reach the agbot. */
  env: NodeJS.ProcessEnv;
}

/**
 * Creates or refreshes the agbot's record (its token generated on the first start and kept in
 * the data dir), then runs `agbot/main.ts` in a process group of its own with each output line
 * prefixed `[agbot] `. Nothing when EXCHANGE_AGBOT=off.
 */
export async function startLocalAgbot(options: LocalAgbotOptions): Promise<GroupChild | undefined> {
  if (options.env.EXCHANGE_AGBOT === 'off') return undefined;
  const dataDir = join(options.dataDir, 'agbot');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const token = keptSecret(join(options.dataDir, 'agbot-token'), ', or set EXCHANGE_AGBOT=off');
  await putAgbotRecord(options, token);
  await serveExistingOrgs(options, token);

  const tsx = createRequire(import.meta.url).resolve('tsx/cli');
  const started = spawnGroup(process.execPath, [tsx, 'agbot/main.ts'], {
    cwd: process.cwd(),
    env: {
      ...options.env,
      HZN_EXCHANGE_URL: options.exchangeUrl,
      HZN_AGBOT_ID: `${LOCAL_AGBOT.org}/${LOCAL_AGBOT.id}`,
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
  return started;
}

/** PUT as root: creates the record, or puts the kept token back on it (idempotent). */
async function putAgbotRecord(options: LocalAgbotOptions, token: string): Promise<void> {
  const path = `/orgs/${LOCAL_AGBOT.org}/agbots/${LOCAL_AGBOT.id}`;
  const response = await httpRequest(`${options.exchangeUrl}${path}`, {
    method: 'PUT',
    headers: {
      authorization: basicAuthHeader('root/root', options.rootPassword),
      'content-type': 'application/json',
    },
    body: JSON.stringify({ token, name: 'local agbot (npm start)', msgEndPoint: '', publicKey: '' }),
  });
  if (response.status !== 200 && response.status !== 201) {
    throw new LocalStackError(
      `Could not create the local agbot ${path}: HTTP ${response.status} ${response.text}`,
    );
  }
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
