/**
 * Which added capabilities (`cap_add`) hand over the host (privileged.ts). The safe set is
 * Docker's default set: every container already holds these, so adding them grants nothing new
 * (podman's default set is a subset; the three it lacks, NET_RAW, MKNOD and AUDIT_WRITE, stay
 * inside the container's network, its device cgroup and the audit log). Everything else, e.g.
 * SYS_ADMIN (mount, the classic escape), SYS_PTRACE, SYS_MODULE, DAC_READ_SEARCH (open_by_handle_at
 * reads host files), NET_ADMIN, BPF or ALL, needs a node that allows privileged services.
 */
const SAFE_CAPABILITIES: readonly string[] = [
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'NET_RAW',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
];

/** `cap_sys_admin`, ` CAP_SYS_ADMIN ` and `SYS_ADMIN` are one capability to the engine. */
export const capabilityName = (cap: string): string => cap.trim().toUpperCase().replace(/^CAP_/, '');

/** Whether adding `cap` keeps the container from the host. */
export const isSafeCapability = (cap: string): boolean => SAFE_CAPABILITIES.includes(capabilityName(cap));
