/**
 * Which bind sources hand the host to a container (privileged.ts). Upstream's agent binds whatever
 * a deployment names; ours binds these only on a node that allows privileged services, because a
 * container that can write to `/etc`, the engine's socket or `/proc/1/root` owns the host.
 */

/**
 * Host paths that give the host away when bound, together with everything under them. A path
 * that contains one of them (`/`, `/var`, `/var/lib`) gives it away too.
 */
const SENSITIVE_HOST_PATHS: readonly string[] = [
  '/etc', // users, sudoers, cron, systemd units, the agent's own configuration
  '/root',
  '/home', // ssh keys and shell profiles; rootless engines' sockets
  '/proc', // /proc/1/root is the host's /, /proc/sys its kernel settings
  '/sys',
  '/dev',
  '/boot',
  '/run', // every service's socket (the engine's, systemd's, dbus)
  '/var/run',
  '/var/lib/docker', // the engine's state: every container's filesystem
  '/var/lib/containers', // podman's
  '/var/lib/kubelet',
  '/var/lib/horizon', // upstream agent's state and keys
  '/var/horizon',
  '/var/spool/cron',
  '/usr', // binaries the host runs as root
  '/bin',
  '/sbin',
  '/lib', // libraries, kernel modules, systemd units
  '/lib32',
  '/lib64',
  '/libx32',
];

/** A named volume (upstream: a bind source without `/` is a volume); it is no host path. */
const VOLUME_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** An engine's API socket wherever it lies (`docker.sock`, `podman.sock`, any `*.sock`). */
const SOCKET = /\.sock$/;

/**
 * The absolute path `path` names, with `.`, `..`, repeated and trailing slashes resolved the way
 * the kernel reads them (`/etc/../` is `/`, `//etc/` is `/etc`); undefined when it is relative.
 */
export function normalizeHostPath(path: string): string | undefined {
  if (!path.startsWith('/')) return undefined;
  const parts: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') parts.pop();
    else parts.push(segment);
  }
  return `/${parts.join('/')}`;
}

const within = (path: string, root: string) => path === root || path.startsWith(`${root}/`);

/**
 * Why binding the absolute, normalized `path` hands over the host, or undefined when it does not:
 * it is, lies under or contains a sensitive path (or one of `protectedPaths`), or is a socket.
 */
function pathRisk(path: string, protectedPaths: readonly string[]): string | undefined {
  if (path === '/') return "mounts the host's /";
  if (SOCKET.test(path)) return 'mounts a socket (a container engine can be driven through it)';
  const roots = [...SENSITIVE_HOST_PATHS, ...protectedPaths.flatMap((p) => normalizeHostPath(p) ?? [])];
  for (const root of roots) {
    if (within(path, root)) return `mounts ${root === path ? '' : 'a path under '}the host's ${root}`;
    if (within(root, path)) return `mounts the host's ${path}, which holds ${root}`;
  }
  return undefined;
}

export interface HostPathOptions {
  /** More host paths to protect (the agent's data directory and engine socket). */
  protectedPaths?: readonly string[];
  /** Resolves symbolic links on the host (the agent passes realpath; lib/protocol has no I/O). */
  resolve?: (path: string) => string;
}

/**
 * Why the bind `source:target[:options]` hands over the host, or undefined when it does not. A
 * named volume is safe; a relative source is refused, as it cannot be judged; an absolute one is
 * judged as written and, when `resolve` is given, again after its links are followed (a link a
 * container planted in a harmless directory may point at `/`).
 */
export function bindRisk(bind: string, options: HostPathOptions = {}): string | undefined {
  const source = bind.split(':')[0] ?? '';
  if (VOLUME_NAME.test(source)) return undefined;
  const path = normalizeHostPath(source);
  if (path === undefined) return 'is neither an absolute host path nor a volume name';
  const protectedPaths = options.protectedPaths ?? [];
  const literal = pathRisk(path, protectedPaths);
  if (literal || !options.resolve) return literal;
  const real = normalizeHostPath(options.resolve(path));
  if (real === undefined || real === path) return undefined;
  const linked = pathRisk(real, protectedPaths);
  return linked ? `resolves to ${real} and ${linked}` : undefined;
}
