import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

/** A child started in a process group of its own, so stopping it also stops whatever it started. */
export interface GroupChild {
  child: ChildProcess;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

export function spawnGroup(command: string, args: string[], options: SpawnOptions): GroupChild {
  const child = spawn(command, args, { ...options, detached: true });
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  const signalGroup = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  const stop = async () => {
    signalGroup('SIGTERM');
    const done = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)]);
    // Whatever is left (the leader, or children that ignored SIGTERM) goes now.
    signalGroup('SIGKILL');
    if (!done) await exited;
  };
  return { child, exited, stop };
}
