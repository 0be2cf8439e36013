import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerAddresses } from './offline.ts';

/**
 * The workers' shared servers (shared-offline.ts) as the run's global setup sees them: what a host
 * writes once its server answers, and its stop by pid. Without vitest's test API, which a global
 * setup cannot import.
 */
export interface SharedOffline {
  /** Where each worker's host writes its addresses (`pool-<id>.json`) and its log. */
  dir: string;
  /** The run's main process: a host outliving it stops itself. */
  runPid: number;
  /** Each worker's table is `<prefix>-<pool id>`. */
  tablePrefix: string;
}

export interface HostAddresses extends ServerAddresses {
  hostPid: number;
  serverPid?: number;
}

/** Stops a host by its pid (it stops its server), and the server's group if the host is gone. */
export function stopHost(host: HostAddresses): void {
  for (const [pid, group] of [
    [host.hostPid, false],
    [host.serverPid, true],
  ] as const) {
    if (pid === undefined) continue;
    try {
      process.kill(group ? -pid : pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

/** Every host's addresses written in `dir` (the run's teardown stops them). */
export function hostsIn(dir: string, files: string[]): HostAddresses[] {
  return files
    .filter((name) => /^pool-\d+\.json$/.test(name))
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as HostAddresses);
}

declare module 'vitest' {
  export interface ProvidedContext {
    sharedOffline: SharedOffline;
  }
}
