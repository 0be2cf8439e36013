import { describe, expect, it } from 'vitest';
import {
  childUnit,
  describeCycle,
  floorLeaks,
  newCycles,
  staleKnownCycles,
  topLevelUnit,
  unitCycles,
} from '#test/support/floors';
import type { ImportEdge } from '#test/support/import-graph';
import { readSpecifiers, resolveSpecifier } from '#test/support/import-graph';

/** The checker behind floors.test.ts, on made-up graphs: it can fail, and says where. */
const edge = (from: string, to: string | undefined, specifier = to ?? 'zod', line = 1): ImportEdge => ({
  from,
  to,
  specifier,
  line,
});

describe('floorLeaks', () => {
  const floors = { lib: [], tables: ['lib'], agent: ['lib'] };

  it('names the importing file, its line, the import and the rule', () => {
    const leaks = floorLeaks(
      [edge('lib/auth/authenticate.ts', 'tables/principals.ts', '#tables/principals', 5)],
      floors,
    );
    expect(leaks).toEqual([
      "lib/auth/authenticate.ts:5 imports '#tables/principals' (tables/principals.ts): lib/ may import only lib/ and packages",
    ]);
  });

  it('allows the folder itself, the folders below it, packages and unruled folders', () => {
    const edges = [
      edge('lib/a.ts', 'lib/b/c.ts'),
      edge('lib/a.ts', undefined, 'node:fs'),
      edge('tables/a.ts', 'lib/b.ts'),
      edge('test/a.ts', 'agent/b.ts'),
    ];
    expect(floorLeaks(edges, floors)).toEqual([]);
  });

  it('refuses a side step between siblings and a step up', () => {
    const leaks = floorLeaks([edge('agent/a.ts', 'tables/b.ts'), edge('tables/a.ts', 'agent/b.ts')], floors);
    expect(leaks).toHaveLength(2);
    expect(leaks[0]).toMatch(
      /^agent\/a\.ts:1 imports 'tables\/b\.ts' .*agent\/ may import only agent\/, lib\//,
    );
  });
});

describe('unitCycles', () => {
  it('finds a cycle between top-level folders and shows one way around it, file by file', () => {
    const cycles = unitCycles(
      [
        edge('agbot/main.ts', 'agent/log.ts', '../agent/log.ts', 3),
        edge('agent/x.ts', 'agbot/y.ts', '../agbot/y.ts', 7),
        edge('agent/x.ts', 'lib/z.ts'),
      ],
      topLevelUnit,
    );
    expect(cycles).toHaveLength(1);
    expect(describeCycle(cycles[0] as (typeof cycles)[0])).toBe(
      [
        'cycle between agbot, agent:',
        "  agbot → agent: agbot/main.ts:3 imports '../agent/log.ts'",
        "  agent → agbot: agent/x.ts:7 imports '../agbot/y.ts'",
      ].join('\n'),
    );
  });

  it('sees no cycle in a layered graph, nor in a file that imports its own folder', () => {
    const edges = [
      edge('functions/a.ts', 'tables/b.ts'),
      edge('tables/b.ts', 'lib/c.ts'),
      edge('lib/c.ts', 'lib/d.ts'),
    ];
    expect(unitCycles(edges, topLevelUnit)).toEqual([]);
  });

  it('inside a folder: a helper beside the wiring joins every folder that uses it in one cycle', () => {
    const edges = [
      edge('agent/agent.ts', 'agent/api/routes.ts'),
      edge('agent/api/routes.ts', 'agent/agent.ts'),
      edge('agent/api/routes.test.ts', 'agent/sync/poll.ts'),
      edge('agent/sync/poll.ts', 'agent/api/routes.ts'),
    ];
    const cycles = unitCycles(edges, childUnit('agent'));
    // The test file is left out: api/ does not import sync/, so sync/ is in no cycle.
    expect(cycles.map((cycle) => cycle.units)).toEqual([['agent/agent.ts', 'agent/api/']]);
  });

  it('tells a known cycle from a new one or a grown one, and a known cycle that is gone', () => {
    const cycles = unitCycles(
      [
        edge('a/x/1.ts', 'a/y/1.ts'),
        edge('a/y/1.ts', 'a/x/1.ts'),
        edge('a/y/1.ts', 'a/z/1.ts'),
        edge('a/z/1.ts', 'a/y/2.ts'),
      ],
      childUnit('a'),
    );
    expect(cycles.map((cycle) => cycle.units)).toEqual([['a/x/', 'a/y/', 'a/z/']]);
    expect(newCycles(cycles, [['a/x/', 'a/y/', 'a/z/']])).toEqual([]);
    expect(newCycles(cycles, [['a/x/', 'a/y/']])).toHaveLength(1);
    expect(staleKnownCycles(cycles, [['a/x/', 'a/y/']])).toEqual([['a/x/', 'a/y/']]);
    expect(staleKnownCycles(cycles, [['a/z/', 'a/x/', 'a/y/']])).toEqual([]);
  });
});

describe('the import reader', () => {
  it('reads every form of import, type imports and dynamic ones included, with their lines', () => {
    const text = [
      "import type { A } from '#tables/a';",
      "export { b } from './b.ts';",
      "const c = await import('../c.ts');",
      "type D = import('#lib/d').D;",
      "import 'side-effect';",
    ].join('\n');
    expect(readSpecifiers(text)).toEqual([
      { specifier: '#tables/a', line: 1 },
      { specifier: './b.ts', line: 2 },
      { specifier: '../c.ts', line: 3 },
      { specifier: '#lib/d', line: 4 },
      { specifier: 'side-effect', line: 5 },
    ]);
  });

  it('resolves subpath imports and relative paths to repository paths, and packages to nothing', () => {
    const subpaths = new Map([['#lib/*', './lib/*.ts']]);
    expect(resolveSpecifier('/nowhere', 'agent/api/x.ts', '#lib/auth/basic', subpaths)).toBe(
      'lib/auth/basic.ts',
    );
    expect(resolveSpecifier('/nowhere', 'agent/api/x.ts', '../errors.ts', subpaths)).toBe('agent/errors.ts');
    expect(resolveSpecifier('/nowhere', 'agent/api/x.ts', 'zod', subpaths)).toBeUndefined();
    expect(resolveSpecifier('/nowhere', 'agent/api/x.ts', 'node:fs', subpaths)).toBeUndefined();
  });
});
