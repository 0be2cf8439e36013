import { type ChildProcess, spawn } from 'node:child_process';

/**
 * Watches an upgraded agent from outside it (docs/nmp.md, "A build that exits at start"): the new
 * executable runs in the same process (execve keeps the pid), so a build that dies before it can
 * settle its journal leaves nothing behind to roll it back. This small shell process does: while
 * the process lives and the journal is open it waits; once the journal is gone (the upgrade was
 * settled, either way) it leaves; if the process died with the journal still open, it puts the
 * previous executable back and starts it with the same arguments (in the watchdog's process, which
 * takes over the agent's pid file), and that agent settles the journal as `rollback successful` (settle.ts). Outside systemd only: a unit restarts its own
 * process, and kills what the old one started.
 */
const WATCH = `
pid="$1"; journal="$2"; executable="$3"; pidfile="$4"; shift 4
# Alive: not gone, and not a zombie its parent has not reaped yet (state Z in /proc/<pid>/stat).
while kill -0 "$pid" 2>/dev/null && [ "$(sed -n 's/^.*) \\(.\\).*/\\1/p' "/proc/$pid/stat" 2>/dev/null)" != Z ]; do
  [ -e "$journal" ] || exit 0
  sleep 1
done
[ -e "$journal" ] && [ -e "$executable.previous" ] || exit 0
mv -f "$executable.previous" "$executable" || exit 1
if [ "$(cat "$pidfile" 2>/dev/null)" = "$pid" ]; then echo "$$" > "$pidfile"; fi
exec "$executable" "$@"
`;

export interface Watched {
  /** The agent's process (its pid survives the execve into the new executable). */
  pid: number;
  /** The upgrade journal (journal.ts): open until the upgrade is settled. */
  journal: string;
  executable: string;
  /** A pid file naming the agent's process (agent-install.sh's): it names the restarted agent then. */
  pidFile: string;
  /** The arguments to start the previous executable with, and its environment. */
  args: string[];
  env: NodeJS.ProcessEnv;
}

/** Starts the watchdog, detached from the agent (it outlives it); answers its process. */
export function startWatchdog(watched: Watched): ChildProcess {
  const child = spawn(
    '/bin/sh',
    [
      '-c',
      WATCH,
      'horizon-upgrade-watchdog',
      String(watched.pid),
      watched.journal,
      watched.executable,
      watched.pidFile,
      ...watched.args,
    ],
    // The agent's own output: the agent it may start again logs where this one did.
    { detached: true, stdio: ['ignore', 'inherit', 'inherit'], env: watched.env },
  );
  child.unref();
  return child;
}
