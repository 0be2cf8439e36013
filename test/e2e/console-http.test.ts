import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsole } from '../../scripts/build-console.ts';
import { useOffline } from './support/offline.ts';

/**
 * The web console through the local HTTP layer (serverless-offline, as `npm start` runs it): the
 * `/v1/console/{proxy+}` mount reaches the console's Lambda, which serves the built page and its
 * assets with their headers, and the console's API answers as the handlers do
 * (test/integration/console/ tests each route in depth; this proves the stack routes to them).
 */
const dir = mkdtempSync(join(tmpdir(), 'console-e2e-'));
const server = useOffline({ env: { EXCHANGE_CONSOLE_DIR: join(dir, 'dist') } });

beforeAll(async () => {
  await buildConsole(join(dir, 'dist'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the console over HTTP', () => {
  it('serves the page and its hashed assets with a strict CSP, no cookie and their cache rules', async () => {
    const page = await fetch(`${server.baseUrl}/v1/console/index.html`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('set-cookie')).toBeNull();
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="(assets\/[^"]+)"/g)].map((match) => match[1]);
    expect(assets).toHaveLength(2);
    for (const asset of assets) {
      const answer = await fetch(`${server.baseUrl}/v1/console/${asset}`);
      expect(answer.status, asset).toBe(200);
      expect(answer.headers.get('cache-control'), asset).toBe('public, max-age=31536000, immutable');
      expect(answer.headers.get('content-type'), asset).toMatch(/^text\/(javascript|css); charset=utf-8$/);
      expect((await answer.text()).length, asset).toBeGreaterThan(500);
    }
  });

  it('answers who am I, 401 without a Basic challenge, and names a bad parameter', async () => {
    const anonymous = await fetch(`${server.baseUrl}/v1/console/whoami`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBeNull();
    const root = { user: 'root/root', secret: server.rootPassword };
    const me = await server.http('GET', '/v1/console/whoami', { auth: root });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: 'root/root', role: 'SuperUser', can: { listOrgs: true } });
    const bad = await server.http('GET', '/v1/console/orgs/root/nodes?limit=0', { auth: root });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain("'limit'");
    const fleet = await server.http('GET', '/v1/console/orgs/root/fleet', { auth: root });
    expect(fleet.status).toBe(200);
    expect(fleet.body).toMatchObject({ org: 'root', total: 0 });
  });
});
