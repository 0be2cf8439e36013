import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credentials, HttpResult } from '#test/support/http';
import { createOrg, createUser, freshId } from '#test/support/world';
import { run } from './support/device-kit.ts';
import { useSharedOffline } from './support/shared-offline.ts';

/**
 * Conventions every endpoint shares, over HTTP: bad input is a 400 `invalid-input` naming the
 * field and writes nothing; unknown routes are JSON 404s; security headers on every answer;
 * the two 401 messages. And the one answer that is a file: the device installer.
 */
const server = useSharedOffline();
const root = (): Credentials => ({ user: 'root/root', secret: server.rootPassword });
const ORG = freshId('req-org');
let user: Credentials;

beforeAll(async () => {
  const fixtures = { http: server.http, root: root() };
  await createOrg(fixtures, ORG);
  user = await createUser(fixtures, ORG, 'alice');
}, 60_000);

function expectInvalidInput(result: HttpResult, field: string) {
  const seen = `${result.status} ${result.text}`;
  expect(result.status, seen).toBe(400);
  expect(result.headers.get('content-type') ?? '', seen).toMatch(/^application\/json/);
  expect(result.body.code, seen).toBe('invalid-input');
  expect(result.body.msg, seen).toContain(field);
}

const orgBody = { label: 'l', description: 'd' };

describe('bad input → 400 invalid-input naming the field, nothing written', () => {
  it('malformed JSON', async () => {
    const org = freshId('bad');
    const result = await server.http('POST', `/v1/orgs/${org}`, { auth: root(), body: '{"label": "x",' });
    expect(result.status, result.text).toBe(400);
    expect(result.body.code).toBe('invalid-input');
    expect(result.body.msg).toMatch(/JSON/i);
    expect((await server.http('GET', `/v1/orgs/${org}`, { auth: root() })).status).toBe(404);
  });

  it('unknown field', async () => {
    const org = freshId('bad');
    const body = { ...orgBody, colour: 'blue' };
    expectInvalidInput(await server.http('POST', `/v1/orgs/${org}`, { auth: root(), body }), 'colour');
    expect((await server.http('GET', `/v1/orgs/${org}`, { auth: root() })).status).toBe(404);
  });

  it('unknown field inside a nested object', async () => {
    const org = freshId('bad');
    const body = { ...orgBody, limits: { maxNodes: 5, maxCats: 2 } };
    expectInvalidInput(await server.http('POST', `/v1/orgs/${org}`, { auth: root(), body }), 'maxCats');
    expect((await server.http('GET', `/v1/orgs/${org}`, { auth: root() })).status).toBe(404);
  });

  it('wrong type', async () => {
    const name = freshId('bob');
    const body = { password: 'pw', admin: 'yes', email: 'bob@example.com' };
    const path = `/v1/orgs/${ORG}/users/${name}`;
    expectInvalidInput(await server.http('POST', path, { auth: root(), body }), 'admin');
    expect((await server.http('GET', path, { auth: root() })).status).toBe(404);
  });

  it('wrong type in a node body', async () => {
    const path = `/v1/orgs/${ORG}/nodes/${freshId('node')}`;
    const body = { name: 'n', heartbeatIntervals: 'often' };
    expectInvalidInput(await server.http('PUT', path, { auth: user, body }), 'heartbeatIntervals');
    expect((await server.http('GET', path, { auth: user })).status).toBe(404);
  });

  it('missing required field', async () => {
    const org = freshId('bad');
    const body = { description: 'no label' };
    expectInvalidInput(await server.http('POST', `/v1/orgs/${org}`, { auth: root(), body }), 'label');
    expect((await server.http('GET', `/v1/orgs/${org}`, { auth: root() })).status).toBe(404);
  });

  it('missing body', async () => {
    const org = freshId('bad');
    const result = await server.http('POST', `/v1/orgs/${org}`, {
      auth: root(),
      headers: { 'content-type': 'application/json' },
    });
    expect(result.status, result.text).toBe(400);
    expect(result.body.code).toBe('invalid-input');
    expect((await server.http('GET', `/v1/orgs/${org}`, { auth: root() })).status).toBe(404);
  });

  it('a JSON array where an object is expected', async () => {
    const path = `/v1/orgs/${ORG}/nodes/${freshId('node')}`;
    const result = await server.http('PUT', path, { auth: user, body: [{ name: 'n' }] });
    expect(result.status, result.text).toBe(400);
    expect(result.body.code).toBe('invalid-input');
    expect((await server.http('GET', path, { auth: user })).status).toBe(404);
  });

  it('over-long org id', async () => {
    const org = 'o'.repeat(300);
    expectInvalidInput(
      await server.http('POST', `/v1/orgs/${org}`, { auth: root(), body: orgBody }),
      'organization',
    );
    const orgs = await server.http('GET', '/v1/orgs', { auth: root() });
    expect(Object.keys(orgs.body.orgs ?? {})).not.toContain(org);
  });

  it('over-long node id', async () => {
    const id = 'n'.repeat(300);
    const path = `/v1/orgs/${ORG}/nodes/${id}`;
    expectInvalidInput(await server.http('PUT', path, { auth: user, body: { name: 'n' } }), 'node');
    const nodes = await server.http('GET', `/v1/orgs/${ORG}/nodes`, { auth: root() });
    expect(Object.keys(nodes.body.nodes ?? {})).not.toContain(`${ORG}/${id}`);
  });

  it('over-long username', async () => {
    const path = `/v1/orgs/${ORG}/users/${'u'.repeat(300)}`;
    const body = { password: 'pw', admin: false, email: 'u@example.com' };
    expectInvalidInput(await server.http('POST', path, { auth: root(), body }), 'username');
  });

  it('query parameter of the wrong type', async () => {
    const path = `/v1/orgs/${ORG}/nodes/${freshId('node')}`;
    const result = await server.http('PUT', path, {
      auth: user,
      body: { name: 'n' },
      query: { noheartbeat: 'tru' },
    });
    expectInvalidInput(result, 'noheartbeat');
    expect((await server.http('GET', path, { auth: user })).status).toBe(404);
  });

  it('a body that is not JSON (Content-Type text/plain) → 415, nothing written', async () => {
    const org = freshId('bad');
    const result = await server.http('POST', `/v1/orgs/${org}`, {
      auth: root(),
      body: JSON.stringify(orgBody),
      headers: { 'content-type': 'text/plain' },
    });
    expect(result.status, result.text).toBe(415);
    expect(result.body.code).toBe('invalid-input');
    expect((await server.http('GET', `/v1/orgs/${org}`, { auth: root() })).status).toBe(404);
  });
});

describe('routing and authentication', () => {
  it('an unknown route → 404 JSON for a valid caller, 401 without credentials', async () => {
    for (const path of ['/v1/nothing-here', `/v1/orgs/${ORG}/gadgets`, '/v2/orgs']) {
      const found = await server.http('GET', path, { auth: root() });
      expect(found.status, `${path}: ${found.text}`).toBe(404);
      expect(found.headers.get('content-type') ?? '').toMatch(/^application\/json/);
      expect(found.body).toEqual({ code: 'not-found', msg: 'unrecognized route' });
      expect((await server.http('GET', path)).status).toBe(401);
    }
  });

  it('an unknown identity → 401 "unauthorized"; a wrong password → 401 "invalid.credentials"', async () => {
    const unknown = await server.http('GET', `/v1/orgs/${ORG}`, {
      auth: { user: `${ORG}/nobody`, secret: 'x' },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ code: 'invalid-credentials', msg: 'unauthorized' });
    const wrong = await server.http('GET', `/v1/orgs/${ORG}`, { auth: { ...user, secret: 'wrong' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ code: 'invalid-credentials', msg: 'invalid.credentials' });
    const garbled = await server.http('GET', `/v1/orgs/${ORG}`, { headers: { authorization: 'Basic !!!' } });
    expect(garbled.status).toBe(401);
  });

  it('the version is plain text for anyone, even with bad credentials', async () => {
    const result = await server.http('GET', '/v1/admin/version', { auth: { user: 'x/y', secret: 'z' } });
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(result.text).toBe('2.154.0\n');
  });
});

describe('security headers', () => {
  const expectSecurityHeaders = (result: HttpResult, what: string) => {
    expect(result.headers.get('cache-control'), what).toBe('max-age=0, must-revalidate, no-cache, no-store');
    expect(result.headers.get('strict-transport-security'), what).toMatch(/max-age=\d{7,}/);
    expect(result.headers.get('x-content-type-options'), what).toBe('nosniff');
    expect(result.headers.get('x-xss-protection'), what).toBe('1; mode=block');
  };

  it('are on successes, errors and deletes alike', async () => {
    const origin = { origin: 'https://console.example.com' };
    const answers: [string, HttpResult][] = [
      ['200 text', await server.http('GET', '/v1/admin/version', { headers: origin })],
      ['200 JSON', await server.http('GET', `/v1/orgs/${ORG}`, { auth: root(), headers: origin })],
      ['401', await server.http('GET', `/v1/orgs/${ORG}`, { headers: origin })],
      ['403', await server.http('GET', '/v1/orgs/root', { auth: user, headers: origin })],
      ['404', await server.http('GET', '/v1/nothing-here', { auth: root(), headers: origin })],
      [
        '400',
        await server.http('POST', `/v1/orgs/${freshId('h')}`, { auth: root(), body: {}, headers: origin }),
      ],
    ];
    const doomed = freshId('gone');
    await createOrg({ http: server.http, root: root() }, doomed);
    answers.push([
      '204',
      await server.http('DELETE', `/v1/orgs/${doomed}`, { auth: root(), headers: origin }),
    ]);
    expect(answers.map(([what, result]) => `${what}:${result.status}`)).toEqual([
      '200 text:200',
      '200 JSON:200',
      '401:401',
      '403:403',
      '404:404',
      '400:400',
      '204:204',
    ]);
    for (const [what, result] of answers) {
      expectSecurityHeaders(result, what);
      // CORS allows every origin.
      expect(result.headers.get('access-control-allow-origin'), what).toMatch(
        /^(\*|https:\/\/console\.example\.com)$/,
      );
    }
  });
});

describe('the device installer, GET /v1/agent-install.sh', () => {
  const script = readFileSync('lib/device/agent-install.sh');
  const url = () => `${server.baseUrl}/v1/agent-install.sh`;
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'installer-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** curl as a device runs it; `-D` keeps the answer's headers. */
  async function curl(args: string[]) {
    const ran = await run('curl', ['-sS', '-D', join(work, 'headers'), ...args, url()]);
    expect(ran.status, ran.output).toBe(0);
    const lines = readFileSync(join(work, 'headers'), 'utf8').trim().split('\r\n');
    const headers = new Map(
      lines
        .slice(1)
        .map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
    );
    return { ...ran, statusLine: lines[0] ?? '', headers };
  }

  it("downloads, without credentials, as the repository's bytes, typed and cacheable", async () => {
    const got = await curl(['-f', '-o', join(work, 'agent-install.sh')]);
    expect(got.statusLine).toMatch(/^HTTP\/1\.1 200/);
    expect(readFileSync(join(work, 'agent-install.sh')).equals(script)).toBe(true);
    expect(got.headers.get('content-type')).toBe('text/x-shellscript; charset=utf-8');
    expect(got.headers.get('content-length')).toBe(String(script.length));
    expect(got.headers.get('cache-control')).toBe('public, max-age=300');
    expect(got.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    // It fits our OpenAPI document (the checked client throws where it does not).
    const checked = await server.http('GET', '/v1/agent-install.sh');
    expect(checked.text).toBe(script.toString('utf8'));
  });

  it('answers HEAD with the same headers and no body', async () => {
    const get = await curl(['-f', '-o', '/dev/null']);
    const head = await curl(['-f', '-I', '-o', join(work, 'head-body')]);
    expect(head.statusLine).toMatch(/^HTTP\/1\.1 200/);
    for (const name of ['content-type', 'content-length', 'cache-control', 'etag'])
      expect(head.headers.get(name), name).toBe(get.headers.get(name));
    expect(readFileSync(join(work, 'head-body'), 'utf8')).toBe(readFileSync(join(work, 'headers'), 'utf8'));
  });

  it('answers If-None-Match with its ETag by a 304 without the body', async () => {
    const etag = (await curl(['-f', '-o', '/dev/null'])).headers.get('etag') ?? '';
    const again = await curl(['-H', `If-None-Match: ${etag}`]);
    expect(again.statusLine).toMatch(/^HTTP\/1\.1 304/);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.stdout).toBe('');
  });

  it('runs piped into sh, as `curl -sSf <exchange>/agent-install.sh | sh -s -- <flags>`', async () => {
    const piped = await run('sh', ['-c', 'curl -sSf "$0" | sh -s -- --help', url()]);
    expect(piped.status, piped.output).toBe(0);
    expect(piped.stdout).toMatch(/^agent-install\.sh \[options\]/);
  });
});
