import { integerSetting, onOffSetting, type Env as SettingsEnv } from '#lib/env-settings';
import { DEFAULT_HEARTBEAT_INTERVALS, type HeartbeatIntervals } from '#lib/protocol/heartbeat-intervals';
import { CONTAINER_CHECK_INTERVAL_S } from '#lib/protocol/timeouts';
/** Settings of one agent process, read from the environment (names as upstream's agent uses). */
export interface AgentConfig {
  /** Local API address: always loopback, the local API has no authentication. */
  host: string;
  /** Host names the local API answers besides loopback's (HZN_AGENT_ALLOWED_HOSTS; api/request-guard.ts). */
  allowedHosts?: string[];
  port: number;
  /** Exchange base URL without a trailing slash, e.g. http://localhost:3090/v1 */
  exchangeUrl: string;
  /** The object store of agent upgrades (docs/nmp.md): HZN_FSS_CSSURL, default `<exchangeUrl>/css`. */
  cssUrl: string;
  dataDir: string;
  /** Trusted certificates and public keys (`/trust`); default `<dataDir>/trust`. */
  trustDir?: string;
  /**
   * The pace of the local loops, and of the Exchange poll when `heartbeat` is absent (a fixed
   * interval: HZN_AGENT_POLL_SECONDS, examples and tests).
   */
  pollIntervalMs: number;
  /** Adaptive Exchange poll (upstream's heartbeat intervals) when HZN_AGENT_POLL_SECONDS is unset. */
  heartbeat?: HeartbeatIntervals;
  /**
   * The signal channel (docs/signals.md): HZN_AGENT_SIGNALS=off keeps the agent on polling alone.
   * While the channel is open, the adaptive poll runs every `signalledPollMs`
   * (HZN_AGENT_SIGNALLED_POLL_SECONDS, default one hour): the safety net for a lost signal.
   */
  signals: boolean;
  signalledPollMs: number;
  /**
   * How often running workloads are checked against their containers (a missing or exited one
   * ends its agreement, 103): HZN_AGENT_CONTAINER_CHECK_SECONDS, anax's fixed 60 s by default.
   */
  containerCheckMs?: number;
  /**
   * Reporting what runs to the Exchange (docs/agent.md, "Status reported to the Exchange"):
   * HZN_AGENT_STATUS_REPORT=off turns it off (anax's ReportDeviceStatus). The containers are
   * looked at locally every `statusCheckMs` (HZN_AGENT_STATUS_CHECK_SECONDS, anax's 60 s), and a
   * workload event is reported `statusCoalesceMs` after it (HZN_AGENT_STATUS_COALESCE_MS, 1000), so
   * the events of a burst make one write. Nothing is written while nothing changed.
   */
  statusReport?: boolean;
  statusCheckMs?: number;
  statusCoalesceMs?: number;
  /** Retry delays after a failure grow from min to max (doubling, with jitter). */
  retryMinMs: number;
  retryMaxMs: number;
  /** Timeout of one Exchange request. */
  requestTimeoutMs: number;
  /** Default node id when POST /node sends an empty one (HZN_NODE_ID, else HZN_DEVICE_ID). */
  defaultNodeId: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

export class ConfigError extends Error {}

type Env = SettingsEnv;

export function loadConfig(env: Env = process.env): AgentConfig {
  const logLevel = env.HZN_AGENT_LOG_LEVEL ?? 'info';
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) {
    throw new ConfigError(`HZN_AGENT_LOG_LEVEL must be debug, info, warn or error, not "${logLevel}"`);
  }
  const exchangeUrl = (env.HZN_EXCHANGE_URL || 'http://localhost:3090/v1').replace(/\/+$/, '');
  if (!URL.canParse(exchangeUrl)) throw new ConfigError(`HZN_EXCHANGE_URL is not a URL: "${exchangeUrl}"`);
  const cssUrl = (env.HZN_FSS_CSSURL || `${exchangeUrl}/css`).replace(/\/+$/, '');
  if (!URL.canParse(cssUrl)) throw new ConfigError(`HZN_FSS_CSSURL is not a URL: "${cssUrl}"`);
  return {
    host: '127.0.0.1',
    allowedHosts: hostList(env, 'HZN_AGENT_ALLOWED_HOSTS'),
    port: integer(env, 'HZN_AGENT_PORT', 8510, 0, 65535),
    exchangeUrl,
    cssUrl,
    dataDir: env.HZN_AGENT_DATA_DIR || '.data/agent',
    ...(env.HZN_AGENT_TRUST_DIR ? { trustDir: env.HZN_AGENT_TRUST_DIR } : {}),
    pollIntervalMs: seconds(env, 'HZN_AGENT_POLL_SECONDS', 10),
    ...(env.HZN_AGENT_POLL_SECONDS ? {} : { heartbeat: heartbeatSettings(env) }),
    signals: onOff(env, 'HZN_AGENT_SIGNALS', true),
    signalledPollMs: integer(env, 'HZN_AGENT_SIGNALLED_POLL_SECONDS', 3_600, 1, 86_400) * 1000,
    containerCheckMs:
      integer(env, 'HZN_AGENT_CONTAINER_CHECK_SECONDS', CONTAINER_CHECK_INTERVAL_S, 1, 86_400) * 1000,
    statusReport: onOff(env, 'HZN_AGENT_STATUS_REPORT', true),
    statusCheckMs:
      integer(env, 'HZN_AGENT_STATUS_CHECK_SECONDS', CONTAINER_CHECK_INTERVAL_S, 1, 86_400) * 1000,
    statusCoalesceMs: integer(env, 'HZN_AGENT_STATUS_COALESCE_MS', 1_000, 0, 600_000),
    retryMinMs: 500,
    retryMaxMs: seconds(env, 'HZN_AGENT_RETRY_MAX_SECONDS', 60),
    requestTimeoutMs: seconds(env, 'HZN_AGENT_EXCHANGE_TIMEOUT_SECONDS', 5),
    defaultNodeId: env.HZN_NODE_ID || env.HZN_DEVICE_ID || '',
    logLevel: logLevel as AgentConfig['logLevel'],
  };
}

/**
 * Comma-separated host names or IP addresses (no port, no wildcard): each one a name that a
 * browser page could not make resolve to this host, e.g. the node's own name on a private network.
 */
function hostList(env: Env, name: string): string[] {
  const names = (env[name] ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of names)
    if (
      !/^[A-Za-z0-9.-]+$|^\[?[0-9A-Fa-f.]*:[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*\]?$/.test(entry) ||
      !/[A-Za-z0-9]/.test(entry)
    )
      throw new ConfigError(
        `${name} takes comma-separated host names or addresses (no port, no wildcard), not "${entry}"`,
      );
  return names;
}

/** The agent's own intervals, used when neither the node nor its org sets any (seconds). */
function heartbeatSettings(env: Env): HeartbeatIntervals {
  const d = DEFAULT_HEARTBEAT_INTERVALS;
  return {
    minInterval: integer(env, 'HZN_AGENT_HEARTBEAT_MIN_SECONDS', d.minInterval, 1, 86_400),
    maxInterval: integer(env, 'HZN_AGENT_HEARTBEAT_MAX_SECONDS', d.maxInterval, 1, 86_400),
    intervalAdjustment: integer(env, 'HZN_AGENT_HEARTBEAT_STEP_SECONDS', d.intervalAdjustment, 0, 86_400),
  };
}

const fail = (message: string) => new ConfigError(message);

const onOff = (env: Env, name: string, fallback: boolean): boolean => onOffSetting(env, name, fallback, fail);

const integer = (env: Env, name: string, fallback: number, min: number, max: number): number =>
  integerSetting(env, name, fallback, { min, max }, fail);

function seconds(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback * 1000;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new ConfigError(`${name} must be a positive number of seconds`);
  return Math.round(value * 1000);
}
