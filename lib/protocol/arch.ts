/**
 * Architecture names (docs/protocol.md#compatibility-checks check 7): the agbot compares a service's arch with the
 * node's after mapping upstream's synonyms, and a workload arch of "" or "*" means any.
 */
const SYNONYMS: Record<string, string> = { x86_64: 'amd64', armhf: 'arm', aarch64: 'arm64' };

export const canonicalArch = (arch: string): string => SYNONYMS[arch] ?? arch;

export const isAnyArch = (arch: string | undefined): boolean =>
  arch === undefined || arch === '' || arch === '*';

/** Whether a service (or binding, user input) of `wanted` arch may run on a node of `actual` arch. */
export const archMatches = (wanted: string | undefined, actual: string): boolean =>
  isAnyArch(wanted) || canonicalArch(wanted as string) === canonicalArch(actual);
