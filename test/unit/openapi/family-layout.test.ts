import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '#functions/families';
import { loadHandler } from '#lib/http/dispatch';

/**
 * In a family's folder, a file beside `routes.ts` and `lambda.ts` is an endpoint's handler (a
 * verb-noun module some route names); everything the handlers share lives in the family's
 * `shared/` folder, so a handler is never mistaken for a helper or the other way round.
 */
const functionsDir = resolve(import.meta.dirname, '..', '..', '..', 'functions');
/** Families whose helpers have not moved to `shared/` yet (being reworked at the same time). */
const NOT_YET_SPLIT = ['changes', 'nodes'];

/** Every handler a route names (a route's module exports it as `handler`). */
const handlers = new Set<unknown>();
beforeAll(async () => {
  for (const family of FAMILIES) for (const route of family.routes) handlers.add(await loadHandler(route));
});

const servesARoute = async (file: string) => handlers.has((await import(file)).handler);

describe("a family's folder", () => {
  const folders = FAMILIES.map((family) => family.folder).filter((folder) => !NOT_YET_SPLIT.includes(folder));

  it.each(folders)('functions/%s holds only routes.ts, lambda.ts, handlers and shared/', async (folder) => {
    const entries = readdirSync(join(functionsDir, folder), { withFileTypes: true });
    const strays = [];
    for (const entry of entries) {
      if (entry.isDirectory() ? entry.name === 'shared' : !entry.name.endsWith('.ts')) continue;
      if (['routes.ts', 'lambda.ts'].includes(entry.name)) continue;
      if (entry.isDirectory() || !(await servesARoute(join(functionsDir, folder, entry.name))))
        strays.push(entry.name);
    }
    expect(strays, 'helpers belong in the shared/ folder').toEqual([]);
  });

  it.each(folders)('functions/%s/shared holds no handler', async (folder) => {
    let shared: string[] = [];
    try {
      shared = readdirSync(join(functionsDir, folder, 'shared')).filter((name) => name.endsWith('.ts'));
    } catch {
      // a family without helpers
    }
    const misplaced = [];
    for (const name of shared)
      if (await servesARoute(join(functionsDir, folder, 'shared', name))) misplaced.push(name);
    expect(misplaced).toEqual([]);
  });
});
