import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { handler } from '#functions/openapi/get-agent-install';
import { invoke } from '#test/support/invoke';

/**
 * GET /v1/agent-install.sh in-process: the repository's installer byte for byte, anonymously,
 * cacheable under a strong ETag that If-None-Match turns into a 304. Over HTTP (serverless-offline,
 * HEAD, curl | sh): test/e2e/requests.test.ts.
 */
const script = readFileSync(new URL('../../../lib/device/agent-install.sh', import.meta.url));
const etag = `"${createHash('sha256').update(script).digest('base64url')}"`;

describe('GET /v1/agent-install.sh', () => {
  it("is the repository's script as text/x-shellscript, for anyone, even with bad credentials", async () => {
    for (const auth of [undefined, { user: 'nobody/none', secret: 'wrong' }]) {
      const result = await invoke(handler, { auth });
      expect(result.status).toBe(200);
      expect(Buffer.from(result.text, 'utf8').equals(script)).toBe(true);
      expect(result.headers['Content-Type']).toBe('text/x-shellscript; charset=utf-8');
      expect(result.headers['Cache-Control']).toBe('public, max-age=300');
      expect(result.headers.ETag).toBe(etag);
      expect(result.headers['X-Content-Type-Options']).toBe('nosniff');
    }
  });

  it.each([etag, `W/${etag}`, `"other", ${etag}`, '*'])(
    'answers If-None-Match: %s with a 304 and no body',
    async (tag) => {
      const result = await invoke(handler, { headers: { 'if-none-match': tag } });
      expect(result.status).toBe(304);
      expect(result.text).toBe('');
      expect(result.headers.ETag).toBe(etag);
      expect(result.headers['Cache-Control']).toBe('public, max-age=300');
    },
  );

  it('answers another tag with the script', async () => {
    const result = await invoke(handler, { headers: { 'if-none-match': '"an-older-installer"' } });
    expect(result.status).toBe(200);
    expect(result.text).toBe(script.toString('utf8'));
  });
});
