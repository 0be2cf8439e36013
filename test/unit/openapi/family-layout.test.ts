import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FALLBACK, FAMILIES } from '#functions/families';

/**
 * In a family's folder, a file beside `routes.ts` and `lambda.ts` is an endpoint's handler (a
 * verb-noun name some route list points at); everything the handlers share lives in the family's
 * `shared/` folder, so a handler is never mistaken for a helper or the other way round.
 */
const functionsDir = resolve(import.meta.dirname, '..', '..', '..', 'functions');
/** Families whose helpers have not moved to `shared/` yet (being reworked at the same time). */
const NOT_YET_SPLIT = ['changes', 'nodes'];

const handlers = new Set([
  FALLBACK.handler,
  ...FAMILIES.flatMap((family) => family.routes.map((route) => route.handler)),
]);

describe("a family's folder", () => {
  const folders = FAMILIES.map((family) => family.folder).filter((folder) => !NOT_YET_SPLIT.includes(folder));

  it.each(folders)('functions/%s holds only routes.ts, lambda.ts, handlers and shared/', (folder) => {
    const strays = readdirSync(join(functionsDir, folder), { withFileTypes: true })
      .filter((entry) => (entry.isDirectory() ? entry.name !== 'shared' : entry.name.endsWith('.ts')))
      .map((entry) => entry.name)
      .filter((name) => !['routes.ts', 'lambda.ts'].includes(name))
      .filter((name) => !handlers.has(`${folder}/${name.replace(/\.ts$/, '')}`));
    expect(strays, 'helpers belong in the shared/ folder').toEqual([]);
  });

  it.each(folders)('functions/%s/shared holds no handler', (folder) => {
    let shared: string[] = [];
    try {
      shared = readdirSync(join(functionsDir, folder, 'shared'));
    } catch {
      // a family without helpers
    }
    const misplaced = shared.filter((name) => handlers.has(`${folder}/shared/${name.replace(/\.ts$/, '')}`));
    expect(misplaced).toEqual([]);
  });
});
