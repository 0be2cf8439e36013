import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readImportGraph, repositoryRoot } from '#test/support/import-graph';

/**
 * The benchmarks run under tsx, outside vitest: a file they reach that imports vitest stops them
 * at start ("vitest failed to access its internal state"). Test support they share must keep its
 * vitest-dependent helpers in files of their own (e.g. test/e2e/support/agbot-rounds.ts).
 */
describe('the benchmarks', () => {
  it('reach no file that imports vitest', () => {
    const edges = readImportGraph(repositoryRoot);
    const next = new Map<string, string[]>();
    const importsVitest = new Set<string>();
    const texts = new Map<string, string>();
    const text = (file: string) => {
      if (!texts.has(file)) texts.set(file, readFileSync(join(repositoryRoot, file), 'utf8'));
      return texts.get(file) as string;
    };
    // A type-only import is erased: it loads nothing at run time.
    const typeOnly = (from: string, specifier: string) =>
      new RegExp(`import type [^;]*from '${specifier.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}'`).test(
        text(from),
      );
    for (const edge of edges) {
      if (edge.to) {
        if (!typeOnly(edge.from, edge.specifier))
          next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
      } else if (/^vitest(\/|$)/.test(edge.specifier) && !typeOnly(edge.from, edge.specifier))
        importsVitest.add(edge.from);
    }
    const benches = [...new Set(edges.map((e) => e.from))].filter((f) => /^bench\/[^/]+\.ts$/.test(f));
    expect(benches.length).toBeGreaterThan(5);
    const offending: string[] = [];
    for (const bench of benches) {
      const via = new Map<string, string>([[bench, '']]);
      const queue = [bench];
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
        if (importsVitest.has(file)) {
          const chain = [file];
          for (let at = via.get(file); at; at = via.get(at)) chain.unshift(at);
          offending.push(chain.join(' → '));
          break;
        }
        for (const to of next.get(file) ?? [])
          if (!via.has(to)) {
            via.set(to, file);
            queue.push(to);
          }
      }
    }
    expect(offending).toEqual([]);
  });
});
