import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '#test/support/import-graph';

/**
 * The console sends Basic credentials it keeps in the tab; a `WWW-Authenticate: Basic` answer
 * would make the browser ask and then send credentials by itself on every request (ambient
 * credentials, open to cross-site requests). No code of the Exchange may send that header
 * (docs/console.md#security); test/integration/console/summaries.test.ts checks a 401 too.
 */
describe('the Exchange', () => {
  it('never names WWW-Authenticate in its code', () => {
    const offenders: string[] = [];
    for (const folder of ['lib', 'functions', 'tables']) {
      for (const file of readdirSync(join(repositoryRoot, folder), { recursive: true, encoding: 'utf8' })) {
        if (!/\.(ts|cjs|mjs)$/.test(file) || file.endsWith('.test.ts')) continue;
        if (/www-authenticate/i.test(readFileSync(join(repositoryRoot, folder, file), 'utf8')))
          offenders.push(`${folder}/${file}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
