import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * `npm ci` on a fresh machine refuses a lock that misses platform builds the registry does not
 * serve (scripts/lock-platform-stubs.mjs records them). This catches a lock rewritten by
 * `npm install` before CI does.
 */
describe('package-lock.json', () => {
  it('records every optional dependency, so npm ci accepts it on a fresh machine', () => {
    const lock = JSON.parse(readFileSync(new URL('../../../package-lock.json', import.meta.url), 'utf8'));
    const packages: Record<string, { optionalDependencies?: Record<string, string> }> = lock.packages;
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
        if (!packages[nested] && !packages[`node_modules/${name}`]) missing.push(name);
      }
    }
    expect(missing, 'run `npm run lock:fix` and commit package-lock.json').toEqual([]);
  });
});
