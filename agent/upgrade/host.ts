import { isSea } from 'node:sea';
import { AGENT_VERSION } from '../ground/version.ts';
import { startWatchdog } from './watchdog.ts';

/** What the upgrade needs of the process it runs in (tests give their own). */
export interface UpgradeHost {
  /** This agent's version. */
  version: string;
  /** The file to replace: the single executable (scripts/device/build-executables.ts). */
  executable: string;
  /** Only the single executable can replace itself (`node dist/agent.mjs` is not one file). */
  singleExecutable: boolean;
  /**
   * Runs `executable` in place of this agent (never returns when it works); `upgrade`, when the
   * new executable is an upgrade: a watchdog rolls it back if it dies before settling the journal.
   */
  restart(executable: string, upgrade?: UpgradeWatch): void;
}

export interface UpgradeWatch {
  journal: string;
  /** The pid file agent-install.sh --no-systemd stops the agent by: the watchdog's agent takes it over. */
  pidFile: string;
}

/** `<data dir>/agent.pid`, where lib/device/agent-install.sh records the agent it started without systemd. */
export const PID_FILE = 'agent.pid';

/**
 * Under systemd (INVOCATION_ID set) the agent exits non-zero and the unit's `Restart=on-failure`
 * starts the new file; otherwise it replaces itself with it (same pid, arguments and environment),
 * watched from outside for an upgrade (watchdog.ts).
 */
export const processHost = (): UpgradeHost => ({
  version: AGENT_VERSION,
  executable: process.execPath,
  singleExecutable: isSea(),
  restart(executable, upgrade) {
    if (process.env.INVOCATION_ID) process.exit(75);
    const args = process.argv.slice(2);
    if (upgrade) startWatchdog({ pid: process.pid, ...upgrade, executable, args, env: process.env });
    process.execve?.(executable, [executable, ...args], process.env);
    process.exit(75);
  },
});
