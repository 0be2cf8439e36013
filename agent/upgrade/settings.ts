/**
 * Each stage of an upgrade job has its own deadline (docs/nmp.md "The agent's upgrade"), so a
 * stuck job ends `failed` and never blocks later ones. Seconds; fractions allowed (tests set them short).
 */
export interface UpgradeLimits {
  /** `download started` → `downloaded`: the manifest and the files fetched and verified. */
  downloadMs: number;
  /** `downloaded` → `initiated`: the swap and the restart begun. */
  installMs: number;
  /** `initiated` → `successful`: the new agent started, reached the Exchange, agreements running. */
  restartMs: number;
  /** Tries of a download that fails for a reason that may pass (upstream's agent: 4). */
  downloadAttempts: number;
  /** The wait before the first retry; it doubles at each one. */
  retryMs: number;
}

const seconds = (env: NodeJS.ProcessEnv, name: string, fallback: number) => {
  const value = Number.parseFloat(env[name] ?? '');
  return (Number.isFinite(value) && value > 0 ? value : fallback) * 1000;
};

const count = (env: NodeJS.ProcessEnv, name: string, fallback: number) => {
  const value = Number.parseInt(env[name] ?? '', 10);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

export const upgradeLimits = (env: NodeJS.ProcessEnv = process.env): UpgradeLimits => ({
  downloadMs: seconds(env, 'HZN_AGENT_UPGRADE_DOWNLOAD_SECONDS', 1800),
  installMs: seconds(env, 'HZN_AGENT_UPGRADE_INSTALL_SECONDS', 600),
  restartMs: seconds(env, 'HZN_AGENT_UPGRADE_RESTART_SECONDS', 300),
  downloadAttempts: count(env, 'HZN_AGENT_UPGRADE_DOWNLOAD_ATTEMPTS', 4),
  retryMs: seconds(env, 'HZN_AGENT_UPGRADE_RETRY_SECONDS', 60),
});
