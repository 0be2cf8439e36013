import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { handler as getAsset } from '#functions/console/get-asset';
import { handler as getPage } from '#functions/console/get-page';
import { CONTENT_SECURITY_POLICY } from '#functions/console/shared/assets';
import { invoke } from '#test/support/invoke';

const empty = mkdtempSync(join(tmpdir(), 'console-none-'));
const built = mkdtempSync(join(tmpdir(), 'console-built-'));
mkdirSync(join(built, 'assets'));
writeFileSync(
  join(built, 'index.html'),
  '<!doctype html><script type="module" src="assets/app-ABC123.js"></script>',
);
writeFileSync(join(built, 'assets', 'app-ABC123.js'), 'console.log(1)');
writeFileSync(join(built, 'assets', 'app-ABC123.css'), 'body{}');
afterAll(() => {
  rmSync(empty, { recursive: true, force: true });
  rmSync(built, { recursive: true, force: true });
});

describe('the console page and assets', () => {
  it('answers 404 saying how to build it when it was not built', async () => {
    process.env.EXCHANGE_CONSOLE_DIR = empty;
    const result = await invoke(getPage);
    expect(result.status).toBe(404);
    expect(result.body).toEqual({
      code: 'not-found',
      msg: 'the console is not built (npm run build:console)',
    });
  });

  it('serves the page anonymously with a strict CSP, no-cache and an ETag (304 on a match)', async () => {
    process.env.EXCHANGE_CONSOLE_DIR = built;
    const page = await invoke(getPage);
    expect(page.status).toBe(200);
    expect(page.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(page.headers['Cache-Control']).toBe('no-cache');
    expect(page.headers['Content-Security-Policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(page.headers['Set-Cookie']).toBeUndefined();
    const again = await invoke(getPage, { headers: { 'if-none-match': page.headers.ETag ?? '' } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it('serves hashed assets for a year; unknown names 404, bad names 400', async () => {
    process.env.EXCHANGE_CONSOLE_DIR = built;
    const js = await invoke(getAsset, { path: { asset: 'app-ABC123.js' } });
    expect(js.status).toBe(200);
    expect(js.text).toBe('console.log(1)');
    expect(js.headers['Content-Type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['Cache-Control']).toBe('public, max-age=31536000, immutable');
    const css = await invoke(getAsset, { path: { asset: 'app-ABC123.css' } });
    expect(css.headers['Content-Type']).toBe('text/css; charset=utf-8');
    expect((await invoke(getAsset, { path: { asset: 'app-OTHER.js' } })).status).toBe(404);
    const bad = await invoke(getAsset, { path: { asset: '..%2Findex.html' } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain("'asset'");
  });
});
