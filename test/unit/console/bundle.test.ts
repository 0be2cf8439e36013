import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryRoot } from '#test/support/import-graph';
import { buildConsole, type ConsoleBuild } from '../../../scripts/build-console.ts';

/** The console's build (npm run build:console): its size budget and what its code may not do. */
const dir = mkdtempSync(join(tmpdir(), 'console-budget-'));
let built: ConsoleBuild;
let script = '';

beforeAll(async () => {
  built = await buildConsole(join(dir, 'dist'));
  const assets = join(dir, 'dist', 'assets');
  const js = readdirSync(assets).find((name) => name.endsWith('.js')) ?? '';
  script = readFileSync(join(assets, js), 'utf8');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the console build', () => {
  it('stays within 60 KB gzip for the whole console (page, script, styles)', () => {
    expect(built.gzipTotal).toBeLessThanOrEqual(60 * 1024);
    const names = built.files.map((file) => file.name);
    expect(names).toHaveLength(3);
    expect(names).toContain('index.html');
    expect(names.some((name) => /^app-[A-Z0-9]+\.js$/.test(name))).toBe(true);
    expect(names.some((name) => /^app-[A-Z0-9]+\.css$/.test(name))).toBe(true);
  });

  it('names its assets by their content hash in a page with no inline script or style', () => {
    const page = readFileSync(join(dir, 'dist', 'index.html'), 'utf8');
    expect(page).toMatch(/<script type="module" src="assets\/app-[A-Z0-9]+\.js"><\/script>/);
    expect(page).not.toMatch(/<script>|<style|\sstyle=|\son\w+=/);
  });

  it('bundles none of the server (types only), no eval and no storage beyond the tab', () => {
    expect(script).not.toMatch(/zod|dynamodb|@aws-sdk/i);
    expect(script).not.toMatch(/\beval\(|new Function\(|localStorage|document\.cookie/);
    expect(script).toContain('sessionStorage');
  });

  it("renders device data as text only: no HTML sink in the console's code", () => {
    const sources = join(repositoryRoot, 'console', 'src');
    for (const file of readdirSync(sources, { recursive: true, encoding: 'utf8' })) {
      if (!/\.tsx?$/.test(file)) continue;
      expect(readFileSync(join(sources, file), 'utf8'), file).not.toMatch(
        /dangerouslySetInnerHTML|innerHTML|outerHTML|insertAdjacentHTML/,
      );
    }
  });
});
