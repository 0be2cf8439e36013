import { integerSetting, onOffSetting, type Env as SettingsEnv } from '#lib/env-settings';
import { NEW_CONTRACT_INTERVAL_S } from '#lib/protocol/timeouts';
/** Settings of one agbot process, from the environment (names as the agbot issue gives them). */
export interface AgbotConfig {
  /** Exchange base URL without a trailing slash, e.g. http://localhost:3090/v1 */
  exchangeUrl: string;
  org: string;
  id: string;
  token: string;
  dataDir: string;
  pollIntervalMs: number;
  /** Status API: loopback only, it has no authentication. */
  host: string;
  port: number;
  requestTimeoutMs: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** Serve every org's policies and patterns (HZN_AGBOT_SERVE_ALL=true; the local stack's IBM/agbot). */
  serveAll: boolean;
  /** HZN_AGBOT_PROTOCOL_TIMEOUT_SECONDS: the reply timeout instead of 2 × the node's max heartbeat. */
  protocolTimeoutS?: number;
  /**
   * The signal channel (docs/signals.md): a round runs at once when the Exchange says the feed has
   * something for this agbot. HZN_AGBOT_SIGNALS=off: rounds every poll interval only.
   */
  signals: boolean;
}

export class AgbotConfigError extends Error {}

type Env = SettingsEnv;

export function loadAgbotConfig(env: Env = process.env): AgbotConfig {
  const exchangeUrl = (env.HZN_EXCHANGE_URL || 'http://localhost:3090/v1').replace(/\/+$/, '');
  if (!URL.canParse(exchangeUrl))
    throw new AgbotConfigError(`HZN_EXCHANGE_URL is not a URL: "${exchangeUrl}"`);
  const identity = env.HZN_AGBOT_ID ?? '';
  const slash = identity.indexOf('/');
  if (slash <= 0 || slash === identity.length - 1 || identity.indexOf('/', slash + 1) !== -1) {
    throw new AgbotConfigError(`HZN_AGBOT_ID must be <org>/<id>, not "${identity}"`);
  }
  const token = env.HZN_AGBOT_TOKEN ?? '';
  if (token === '') throw new AgbotConfigError('HZN_AGBOT_TOKEN must be set to the agbot’s token');
  const logLevel = env.HZN_AGBOT_LOG_LEVEL ?? 'info';
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) {
    throw new AgbotConfigError(`HZN_AGBOT_LOG_LEVEL must be debug, info, warn or error, not "${logLevel}"`);
  }
  return {
    exchangeUrl,
    org: identity.slice(0, slash),
    id: identity.slice(slash + 1),
    token,
    dataDir: env.HZN_AGBOT_DATA_DIR || '.data/agbot',
    pollIntervalMs: positiveSeconds(env, 'HZN_AGBOT_POLL_SECONDS', NEW_CONTRACT_INTERVAL_S) * 1000,
    host: '127.0.0.1',
    port: integer(env, 'HZN_AGBOT_PORT', 8046, 0, 65535),
    requestTimeoutMs: positiveSeconds(env, 'HZN_AGBOT_EXCHANGE_TIMEOUT_SECONDS', 10) * 1000,
    logLevel: logLevel as AgbotConfig['logLevel'],
    serveAll: env.HZN_AGBOT_SERVE_ALL === 'true',
    signals: onOff(env, 'HZN_AGBOT_SIGNALS', true),
    ...(env.HZN_AGBOT_PROTOCOL_TIMEOUT_SECONDS
      ? { protocolTimeoutS: positiveSeconds(env, 'HZN_AGBOT_PROTOCOL_TIMEOUT_SECONDS', 240) }
      : {}),
  };
}

const fail = (message: string) => new AgbotConfigError(message);

const onOff = (env: Env, name: string, fallback: boolean): boolean => onOffSetting(env, name, fallback, fail);

const integer = (env: Env, name: string, fallback: number, min: number, max: number): number =>
  integerSetting(env, name, fallback, { min, max }, fail);

function positiveSeconds(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > 86_400) {
    throw new AgbotConfigError(`${name} must be a number of seconds above 0 and at most 86400, not "${raw}"`);
  }
  return value;
}
