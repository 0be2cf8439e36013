import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import * as z from 'zod';

/**
 * Server settings: `config/exchange.json` (or `EXCHANGE_CONFIG_FILE`) overlaid by environment
 * variables. Root's password only ever comes from the environment.
 */
const count = z.number().int().min(0);
/** Largest message body of either mailbox: what still fits in one DynamoDB item beside the other fields. */
export const MAX_MESSAGE_BYTES = 300_000;
const agbotWriteStatus = z.literal([200, 201], { error: 'must be 200 or 201' });
const configSchema = z.strictObject({
  rootEnabled: z.boolean().default(true),
  limits: z
    .strictObject({
      maxNodes: count.default(45000),
      maxAgbots: count.default(1000),
      maxAgreements: count.default(0),
      /** Unexpired messages one mailbox holds (0 = unlimited, as upstream's default; issue 23). */
      maxMessagesInMailbox: count.default(10_000),
      /** One sender's share of someone else's mailbox, in messages and in message bytes (0 = unlimited). */
      maxMessagesPerSender: count.default(100),
      maxMessageBytesPerSender: z
        .number()
        .int()
        .refine((value) => value === 0 || value >= MAX_MESSAGE_BYTES, {
          message: `must be 0 (unlimited) or at least ${MAX_MESSAGE_BYTES} (one message of the largest size)`,
        })
        .default(3_000_000),
      // 100 days: upstream keeps any ttl and its drivers send 8,640,000 s; longer ones are clamped.
      maxMessageTtlSeconds: z.number().int().positive().default(8_640_000),
      /** Services one user may own, over all orgs (0 = unlimited). */
      maxServices: count.default(1000),
      /** Deployment patterns one user may own, over all orgs (0 = unlimited). */
      maxPatterns: count.default(1000),
      /** Deployment policies one user may own, over all orgs (0 = unlimited). */
      maxDeploymentPolicies: count.default(5000),
      /** Node management policies one user may own, over all orgs (0 = unlimited; upstream's maxManagementPolicies). */
      maxManagementPolicies: count.default(5000),
      /** Most change rows one `POST /changes` returns (upstream's resourceChanges.maxRecordsCap). */
      maxChangeRecords: z.number().int().positive().default(10_000),
    })
    .prefault({}),
  compat: z
    .strictObject({
      // 200 by default; upstream, anax and upstream's test drivers expect 201 (docs/compatibility.md#agbots-and-agbot-agreements).
      agbotWriteStatus: agbotWriteStatus.default(200),
    })
    .prefault({}),
  authCacheSeconds: count.default(60),
  /**
   * How long a secret that matched a stored hash is remembered as matching it (0 = never): a pure
   * memo of scrypt, keyed by the hash, so it bounds CPU and memory, not trust (README, "Identities").
   */
  authVerifiedSeconds: count.default(3600),
  dropTokenTtlSeconds: z.number().int().positive().default(600),
});

export type ExchangeConfig = z.infer<typeof configSchema> & { rootPassword: string | undefined };

const envNumber = (name: string): number | undefined => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
  return value;
};

/** `EXCHANGE_AGBOT_WRITE_STATUS`: 200 or 201, checked by the same rule as the file's setting. */
const envAgbotWriteStatus = (): 200 | 201 | undefined => {
  const raw = process.env.EXCHANGE_AGBOT_WRITE_STATUS;
  if (raw === undefined || raw === '') return undefined;
  const parsed = agbotWriteStatus.safeParse(Number(raw));
  if (!parsed.success)
    throw new Error(`EXCHANGE_AGBOT_WRITE_STATUS (compat.agbotWriteStatus) must be 200 or 201`);
  return parsed.data;
};

const configFilePath = (): string =>
  resolve(process.env.EXCHANGE_CONFIG_FILE || resolve(process.cwd(), 'config/exchange.json'));

/** Reads and validates the file and environment; throws an Error naming the bad setting. */
export function readConfig(path = configFilePath()): ExchangeConfig {
  let fromFile: unknown = {};
  try {
    fromFile = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw new Error(`${path}: ${(error as Error).message}`);
  }
  const parsed = configSchema.safeParse(fromFile);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${path}: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  const config = parsed.data;
  const limits = config.limits;
  limits.maxNodes = envNumber('EXCHANGE_MAX_NODES') ?? limits.maxNodes;
  limits.maxAgbots = envNumber('EXCHANGE_MAX_AGBOTS') ?? limits.maxAgbots;
  limits.maxAgreements = envNumber('EXCHANGE_MAX_AGREEMENTS') ?? limits.maxAgreements;
  limits.maxMessagesInMailbox = envNumber('EXCHANGE_MAILBOX_SIZE') ?? limits.maxMessagesInMailbox;
  limits.maxMessagesPerSender = envNumber('EXCHANGE_MAILBOX_SENDER_MSGS') ?? limits.maxMessagesPerSender;
  limits.maxMessageBytesPerSender =
    envNumber('EXCHANGE_MAILBOX_SENDER_BYTES') ?? limits.maxMessageBytesPerSender;
  limits.maxServices = envNumber('EXCHANGE_MAX_SERVICES') ?? limits.maxServices;
  limits.maxPatterns = envNumber('EXCHANGE_MAX_DEPLOY_PATTERNS') ?? limits.maxPatterns;
  limits.maxDeploymentPolicies = envNumber('EXCHANGE_MAX_DEPLOY_POLICIES') ?? limits.maxDeploymentPolicies;
  limits.maxManagementPolicies = envNumber('EXCHANGE_MAX_MGMT_POLICIES') ?? limits.maxManagementPolicies;
  config.compat.agbotWriteStatus = envAgbotWriteStatus() ?? config.compat.agbotWriteStatus;
  const rootEnabled = process.env.EXCHANGE_ROOT_ENABLED;
  if (rootEnabled !== undefined && rootEnabled !== '') config.rootEnabled = rootEnabled !== 'false';
  const rootPassword = process.env.EXCHANGE_ROOT_PW || undefined;
  return { ...config, rootPassword };
}

/**
 * The settings in force. Every process rereads the file when it changes (checked at most once a
 * second), so `POST /v1/admin/reload` in one process reaches the others too.
 */
let current: { config: ExchangeConfig; mtimeMs: number; checkedAt: number } | undefined;

const fileMtime = (path: string): number => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
};

export function getConfig(): ExchangeConfig {
  const now = Date.now();
  if (current && now - current.checkedAt < 1000) return current.config;
  const path = configFilePath();
  const mtimeMs = fileMtime(path);
  if (current && current.mtimeMs === mtimeMs) {
    current.checkedAt = now;
    return current.config;
  }
  try {
    current = { config: readConfig(path), mtimeMs, checkedAt: now };
  } catch (error) {
    // A broken file edited under a running server must not take it down: keep the last good settings.
    if (!current) throw error;
    current.checkedAt = now;
  }
  return current.config;
}

/** Rereads now; throws (and keeps the old settings) when the new ones are invalid. */
export function reloadConfig(): ExchangeConfig {
  const path = configFilePath();
  current = { config: readConfig(path), mtimeMs: fileMtime(path), checkedAt: Date.now() };
  return current.config;
}
