import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { handler as unrecognizedRoute } from '#functions/fallback/unrecognized-route';
import { handler as postOrg } from '#functions/orgs/post-org';
import { ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { httpRequest } from '../../../scripts/local/http-request.ts';
import { useSharedOffline } from '../support/shared-offline.ts';

/**
 * Requests that serverless-offline (hapi and Node's HTTP parser) answers itself, before any of
 * our handlers runs, so in its own shape instead of `{code, msg}`. They are listed in
 * docs/compatibility.md, "Local HTTP layer"; these tests pin each local answer so that a change
 * is noticed, and show what our handler answers when API Gateway delivers the same request.
 */
const server = useSharedOffline();
const ALLOWED_ORIGIN = 'http://localhost:3090'; // serverless.yml provider.httpApi.cors default
const root = { authorization: `Basic ${Buffer.from(`${ROOT.user}:${ROOT.secret}`).toString('base64')}` };

/** One request written byte for byte (bytes node:http refuses to send); the whole answer. */
function rawExchange(head: Buffer): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.once('error', reject);
    socket.once('end', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [statusLine = '', ...rest] = text.split('\r\n');
      resolve({
        status: Number(statusLine.split(' ')[1]),
        body: rest.join('\r\n').split('\r\n\r\n')[1] ?? '',
      });
    });
    socket.end(head);
  });
}

const hapiError = (status: number, error: string, message: string | RegExp) => ({
  statusCode: status,
  error,
  message: typeof message === 'string' ? message : expect.stringMatching(message),
});

const json = (text: string) => JSON.parse(text);

describe('CORS (provider.httpApi.cors)', () => {
  it('a preflight from the allowed origin → 204 with the configured origin, methods and headers', async () => {
    const headers = {
      origin: ALLOWED_ORIGIN,
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'authorization,content-type',
    };
    const result = await httpRequest(`${server.baseUrl}/v1/orgs/IBM`, { method: 'OPTIONS', headers });
    expect(result.status).toBe(204);
    expect(result.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
    expect(result.headers['access-control-allow-methods']).toBe('GET,POST,PUT,PATCH,DELETE');
    expect(result.headers['access-control-allow-headers']).toBe('Authorization,Content-Type');
    expect(result.headers['access-control-max-age']).toBe('600');
  });

  it('a preflight from another origin gets no access-control-allow-origin (the browser refuses)', async () => {
    const headers = { origin: 'https://evil.example', 'access-control-request-method': 'GET' };
    const result = await httpRequest(`${server.baseUrl}/v1/orgs`, { method: 'OPTIONS', headers });
    expect(result.status).toBe(204);
    expect(result.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('local difference: OPTIONS that is not a preflight → hapi 404 {statusCode,error,message}', async () => {
    const result = await httpRequest(`${server.baseUrl}/v1/orgs`, { method: 'OPTIONS' });
    expect(result.status).toBe(404);
    expect(json(result.text)).toEqual(
      hapiError(404, 'Not Found', /^CORS error: Missing Access-Control-Request-Method/),
    );
    // API Gateway routes it like any other method, to the catch-all: our {code,msg} answer.
    const ours = await invoke(unrecognizedRoute, { headers: {} });
    expect(ours.status).toBe(401);
    expect(ours.body).toEqual({ code: expect.any(String), msg: expect.any(String) });
  });

  it('local difference: an answer to any origin echoes that origin (API Gateway: only allowed origins)', async () => {
    const headers = { origin: 'https://evil.example' };
    const result = await httpRequest(`${server.baseUrl}/v1/admin/version`, { headers });
    expect(result.status).toBe(200);
    expect(result.headers['access-control-allow-origin']).toBe('https://evil.example');
  });
});

describe('paths our handlers never see locally', () => {
  it.each(['%ff', '%', '%E0%A4%A', '%C3%28', 'a%zzb'])(
    'bad percent-encoding or invalid UTF-8 (%s) → hapi 400 {statusCode,error,message}',
    async (segment) => {
      const result = await httpRequest(server.baseUrl, { headers: root }, `/v1/orgs/${segment}`);
      expect(result.status).toBe(400);
      expect(json(result.text)).toEqual(hapiError(400, 'Bad Request', 'Bad Request'));
    },
  );

  it('a raw byte over 0x7f in the path → an empty 400 from the HTTP parser', async () => {
    const head = Buffer.concat([
      Buffer.from('GET /v1/orgs/'),
      Buffer.from([0xff]),
      Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    ]);
    expect(await rawExchange(head)).toEqual({ status: 400, body: '' });
  });

  it('a request line over 16 KB → an empty 400 (Node’s header limit; API Gateway: 10 KB)', async () => {
    const result = await rawExchange(
      Buffer.from(`GET /v1/orgs/${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
    );
    expect(result).toEqual({ status: 400, body: '' });
    // Just under the limit the request reaches our handler: {code,msg}.
    const under = await httpRequest(server.baseUrl, { headers: root }, `/v1/orgs/${'a'.repeat(15 * 1024)}`);
    expect(under.status).toBe(400);
    expect(json(under.text)).toEqual({ code: 'invalid-input', msg: expect.stringContaining('organization') });
  });
});

describe('content types', () => {
  const body = JSON.stringify({ label: 'l', description: 'd' });

  it.each([
    ['json', 'Invalid content-type header'],
    ['multipart/form-data', 'Invalid content-type header: multipart missing boundary'],
  ])('local difference: Content-Type: %s → hapi 400 {statusCode,error,message}', async (type, message) => {
    const headers = { ...root, 'content-type': type };
    const result = await httpRequest(`${server.baseUrl}/v1/orgs/ctype-org`, {
      method: 'POST',
      headers,
      body,
    });
    expect(result.status).toBe(400);
    expect(json(result.text)).toEqual(hapiError(400, 'Bad Request', message));
    // API Gateway passes it on; our handler refuses it with {code,msg}.
    const ours = await invoke(postOrg, {
      auth: ROOT,
      path: { organization: 'ctype-org' },
      headers: { 'content-type': type },
      body,
    });
    expect(ours.status).toBe(415);
    expect(ours.body).toEqual({ code: 'invalid-input', msg: expect.stringContaining(type) });
  });

  it('other content types reach our handler locally too: 415 {code,msg}', async () => {
    const headers = { ...root, 'content-type': 'text/plain' };
    const result = await httpRequest(`${server.baseUrl}/v1/orgs/ctype-org`, {
      method: 'POST',
      headers,
      body,
    });
    expect(result.status).toBe(415);
    expect(json(result.text)).toEqual({ code: 'invalid-input', msg: expect.stringContaining('text/plain') });
  });
});
