import { isSea } from 'node:sea';
import { AGENT_VERSION } from '../ground/version.ts';

/** What the upgrade needs of the process it runs in (tests give their own). */
export interface UpgradeHost {
  /** This agent's version. */
  version: string;
  /** The file to replace: the single executable (scripts/device/build-executables.ts). */
  executable: string;
  /** Only the single executable can replace itself (`node dist/agent.mjs` is not one file). */
  singleExecutable: boolean;
  /** Runs `executable` in place of this agent (never returns when it works). */
  restart(executable: string): void;
}

/**
 * Under systemd (INVOCATION_ID set) the agent exits non-zero and the unit's `Restart=on-failure`
 * starts the new file; otherwise it replaces itself with it (same pid, arguments and environment).
 */
export const processHost = (): UpgradeHost => ({
  version: AGENT_VERSION,
  executable: process.execPath,
  singleExecutable: isSea(),
  restart(executable) {
    if (process.env.INVOCATION_ID) process.exit(75);
    process.execve?.(executable, [executable, ...process.argv.slice(2)], process.env);
    process.exit(75);
  },
});
