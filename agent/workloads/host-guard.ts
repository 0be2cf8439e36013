import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { HostAccessOptions } from '#lib/protocol/privileged';
import type { AgentConfig } from '../ground/config.ts';
import { engineSocketPath } from './engine.ts';

/**
 * What the shared host-access rule (lib/protocol/privileged.ts) needs to know about this node:
 * the agent's own paths (its data directory holds the node's keys and every agreement's secrets,
 * the engine socket runs containers) and the host's symbolic links, which the engine follows.
 */
export function agentHostAccess(
  config: AgentConfig,
  dockerHost = process.env.DOCKER_HOST,
): HostAccessOptions {
  const own = [config.dataDir, ...(config.trustDir ? [config.trustDir] : [])].map((p) => resolve(p));
  let socket: string[] = [];
  try {
    socket = [engineSocketPath(dockerHost)];
  } catch {
    // Not a unix socket: the engine is unreachable anyway (node-protocol.ts logs it).
  }
  return { protectedPaths: [...own, ...socket], resolve: realHostPath };
}

/**
 * The path with its links resolved. The engine creates a missing bind source, so the longest
 * existing ancestor is resolved and the rest appended (`/srv/link/new` with `link → /etc` is
 * `/etc/new`).
 */
export function realHostPath(path: string): string {
  let existing = path;
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(existing), ...rest);
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return path;
      rest.unshift(basename(existing));
      existing = parent;
    }
  }
}
