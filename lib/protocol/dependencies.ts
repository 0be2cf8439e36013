/**
 * Service dependencies (docs/protocol.md#compatibility-checks check 8, docs/protocol.md#running-the-workload step 2): each `requiredServices` entry of a
 * service resolves, depth first, to the highest version inside its `versionRange` (`version` in
 * old definitions, one bound meaning "and up") among the definitions for the node's arch (arch
 * synonyms applied). The agbot runs it before proposing, the agent before starting; where the
 * definitions come from is the caller's (an Exchange read), so the rule lives once here.
 */
import { compareVersions, versionInRange } from '#lib/catalog/version-range';
import { archMatches, isAnyArch } from './arch.ts';

/** One `requiredServices` entry of a service definition (the Exchange sends absent fields as null). */
export interface RequiredService {
  org: string;
  url: string;
  versionRange?: string | null;
  version?: string | null;
  arch?: string | null;
}

/** One definition of a required service as the Exchange lists it. */
export interface DependencyDefinition {
  version: string;
  arch: string;
  requiredServices?: readonly RequiredService[] | null;
}

/** The definitions of `org/url` (every version); which arch to ask for is a hint, filtering is here. */
export type ListDefinitions<D extends DependencyDefinition> = (
  org: string,
  url: string,
  arch: string,
) => Promise<readonly D[]>;

export interface ResolvedDependency<D extends DependencyDefinition> {
  org: string;
  url: string;
  version: string;
  arch: string;
  definition: D;
  /** Its own dependencies, resolved the same way. */
  requires: ResolvedDependency<D>[];
}

export class DependencyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DependencyError';
  }
}

/** Upstream treats a missing range as any version. */
const ANY = '[0.0.0,INFINITY)';

/** A chain deeper than this is refused: a definition graph that deep is a mistake, not a service. */
const MAX_DEPTH = 16;

const rangeOf = (entry: RequiredService): string => entry.versionRange || entry.version || ANY;

/**
 * Resolves `required` (recursively) for a node of `nodeArch`. A DependencyError names the first
 * entry that cannot be resolved, or the cycle (`a -> b -> a`) when a service requires itself.
 */
export async function resolveDependencies<D extends DependencyDefinition>(
  required: readonly RequiredService[] | null | undefined,
  nodeArch: string,
  list: ListDefinitions<D>,
  chain: readonly string[] = [],
): Promise<ResolvedDependency<D>[]> {
  const resolved: ResolvedDependency<D>[] = [];
  for (const entry of required ?? []) {
    const name = `${entry.org}/${entry.url}`;
    if (chain.includes(name)) throw new DependencyError(`dependency cycle: ${[...chain, name].join(' -> ')}`);
    if (chain.length >= MAX_DEPTH) throw new DependencyError(`dependencies of ${name} are nested too deep`);
    const range = rangeOf(entry);
    const wanted = entry.arch ?? undefined;
    if (!isAnyArch(wanted) && !archMatches(wanted, nodeArch))
      throw new DependencyError(`required service ${name} is for arch ${entry.arch}, not ${nodeArch}`);
    const arch = isAnyArch(wanted) ? nodeArch : (wanted as string);
    const best = [...(await list(entry.org, entry.url, arch))]
      .filter((d) => archMatches(d.arch, nodeArch) && versionInRange(d.version, range))
      .sort((a, b) => compareVersions(b.version, a.version))[0];
    if (!best)
      throw new DependencyError(
        `required service ${name} has no version in ${range} for arch ${nodeArch} in the Exchange`,
      );
    resolved.push({
      org: entry.org,
      url: entry.url,
      version: best.version,
      arch: best.arch || arch,
      definition: best,
      requires: await resolveDependencies(best.requiredServices, nodeArch, list, [...chain, name]),
    });
  }
  return resolved;
}

/** Every dependency of a resolved tree, parents before their own dependencies. */
export const flattenDependencies = <D extends DependencyDefinition>(
  tree: readonly ResolvedDependency<D>[],
): ResolvedDependency<D>[] => tree.flatMap((d) => [d, ...flattenDependencies(d.requires)]);
