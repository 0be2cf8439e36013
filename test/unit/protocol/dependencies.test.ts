import { describe, expect, it } from 'vitest';
import {
  type DependencyDefinition,
  flattenDependencies,
  type ListDefinitions,
  resolveDependencies,
} from '#lib/protocol/dependencies';

type Def = DependencyDefinition & { id: string };

/** An Exchange of definitions by `org/url`, recording every lookup. */
function catalog(entries: Record<string, Def[]>) {
  const asked: string[] = [];
  const list: ListDefinitions<Def> = async (org, url, arch) => {
    asked.push(`${org}/${url} ${arch}`);
    return entries[`${org}/${url}`] ?? [];
  };
  return { list, asked };
}

const def = (
  id: string,
  version: string,
  arch = 'amd64',
  requiredServices: Def['requiredServices'] = [],
): Def => ({
  id,
  version,
  arch,
  requiredServices,
});

describe('service dependencies: resolution (docs/protocol.md#compatibility-checks check 8, docs/protocol.md#running-the-workload step 2)', () => {
  it('picks the highest version inside the range, numerically (1.10 above 1.9), for the node arch', async () => {
    const { list } = catalog({
      'o/dep': [def('a', '1.9.0'), def('b', '1.10.0'), def('c', '2.0.0'), def('d', '1.11.0', 'arm64')],
    });
    const [resolved] = await resolveDependencies(
      [{ org: 'o', url: 'dep', versionRange: '[1.0.0,2.0.0)' }],
      'amd64',
      list,
    );
    expect(resolved).toMatchObject({ org: 'o', url: 'dep', version: '1.10.0', arch: 'amd64' });
    expect(resolved?.definition.id).toBe('b');
  });

  it('reads an old definition`s `version` as a lower bound, and no range as any version', async () => {
    const { list } = catalog({ 'o/dep': [def('a', '0.5.0'), def('b', '3.0.0')] });
    const old = await resolveDependencies([{ org: 'o', url: 'dep', version: '1.0.0' }], 'amd64', list);
    expect(old[0]?.version).toBe('3.0.0');
    const any = await resolveDependencies([{ org: 'o', url: 'dep' }], 'amd64', list);
    expect(any[0]?.version).toBe('3.0.0');
    // As the Exchange lists an entry given only a range: `version: null`.
    const nulls = await resolveDependencies(
      [{ org: 'o', url: 'dep', version: null, versionRange: '[0.1.0,1.0.0)', arch: null }],
      'amd64',
      list,
    );
    expect(nulls[0]?.version).toBe('0.5.0');
  });

  it('applies arch synonyms both to the entry and to the definitions (x86_64 = amd64)', async () => {
    const { list } = catalog({ 'o/dep': [def('x', '1.0.0', 'x86_64'), def('p', '9.0.0', 'ppc64le')] });
    const [resolved] = await resolveDependencies(
      [{ org: 'o', url: 'dep', versionRange: '1.0.0', arch: 'x86_64' }],
      'amd64',
      list,
    );
    expect(resolved?.definition.id).toBe('x');
    await expect(
      resolveDependencies([{ org: 'o', url: 'dep', arch: 'arm64' }], 'amd64', list),
    ).rejects.toThrow('required service o/dep is for arch arm64, not amd64');
  });

  it('names the entry that has no version in range for the arch', async () => {
    const { list } = catalog({ 'o/dep': [def('a', '2.0.0'), def('b', '1.5.0', 'arm64')] });
    await expect(
      resolveDependencies([{ org: 'o', url: 'dep', versionRange: '[1.0.0,2.0.0)' }], 'amd64', list),
    ).rejects.toThrow(
      'required service o/dep has no version in [1.0.0,2.0.0) for arch amd64 in the Exchange',
    );
    await expect(resolveDependencies([{ org: 'o', url: 'gone' }], 'amd64', list)).rejects.toThrow(
      'required service o/gone has no version',
    );
  });

  it('resolves depth first and flattens parents before their dependencies', async () => {
    const { list } = catalog({
      'o/a': [def('a', '1.0.0', 'amd64', [{ org: 'o', url: 'b', versionRange: '1.0.0' }])],
      'o/b': [def('b', '1.0.0', 'amd64', [{ org: 'o', url: 'c', versionRange: '1.0.0' }])],
      'o/c': [def('c', '1.0.0')],
      'o/d': [def('d', '1.0.0')],
    });
    const tree = await resolveDependencies(
      [
        { org: 'o', url: 'a', versionRange: '1.0.0' },
        { org: 'o', url: 'd', versionRange: '1.0.0' },
      ],
      'amd64',
      list,
    );
    expect(flattenDependencies(tree).map((d) => d.url)).toEqual(['a', 'b', 'c', 'd']);
    expect(tree[0]?.requires[0]?.requires[0]?.url).toBe('c');
  });

  it('refuses a cycle instead of looping, naming it (the top-level service counts)', async () => {
    const { list, asked } = catalog({
      'o/a': [def('a', '1.0.0', 'amd64', [{ org: 'o', url: 'b' }])],
      'o/b': [def('b', '1.0.0', 'amd64', [{ org: 'o', url: 'a' }])],
      'o/self': [def('s', '1.0.0', 'amd64', [{ org: 'o', url: 'top' }])],
    });
    await expect(resolveDependencies([{ org: 'o', url: 'a' }], 'amd64', list, ['o/top'])).rejects.toThrow(
      'dependency cycle: o/top -> o/a -> o/b -> o/a',
    );
    await expect(resolveDependencies([{ org: 'o', url: 'self' }], 'amd64', list, ['o/top'])).rejects.toThrow(
      'dependency cycle: o/top -> o/self -> o/top',
    );
    expect(asked.length).toBeLessThan(10);
  });
});
