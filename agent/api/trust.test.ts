import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent.ts';
import { makeCert, makeExpiredCert, rsaKey, type TestCert } from '../test-support/certs.ts';
import type { FakeExchange } from '../test-support/fake-exchange.ts';
import {
  newAgent,
  registerNode,
  startAgentUnderTest,
  stopAgentUnderTest,
  type tempDir,
} from '../test-support/harness.ts';

let fake: FakeExchange;
let dir: ReturnType<typeof tempDir>;
let agent: Agent;
let signer: TestCert;
let other: TestCert;
let expired: TestCert;
let ec: TestCert;
let ca: TestCert;

beforeAll(() => {
  const key = rsaKey();
  signer = makeCert({ key });
  other = makeCert({ key, subject: '/CN=second.example/O=Second/OU=Edge/ST=NY/L=Town' });
  expired = makeExpiredCert(key);
  ca = makeCert({ key, ca: true });
  ec = makeCert({ keyType: 'ec' });
}, 60_000);

beforeEach(async () => {
  ({ fake, dir, agent } = await startAgentUnderTest());
});
afterEach(() => stopAgentUnderTest({ fake, dir, agent }));

const trustDir = () => join(dir.path, 'trust');
const put = (name: string, body: string, contentType?: string) =>
  agent.app.inject({
    method: 'PUT',
    url: `/trust/${name}`,
    payload: body,
    headers: contentType ? { 'content-type': contentType } : {},
  });
const get = (url: string) => agent.app.inject({ method: 'GET', url });
const remove = (name: string) => agent.app.inject({ method: 'DELETE', url: `/trust/${name}` });

/** openssl's view of a certificate field (e.g. `serial` → `serial=0F...`). */
const opensslField = (cert: string, flag: string) =>
  execFileSync('openssl', ['x509', '-noout', flag], { input: cert }).toString().trim();

describe('/trust', () => {
  it('starts empty, stores a PEM sent with any content type (or none) and lists it', async () => {
    expect((await get('/trust')).json()).toEqual({ pem: [] });
    for (const [name, type] of [
      ['a.pem', 'text/plain'],
      ['b.pem', 'application/json'],
      ['c.pem', undefined],
      ['d.pem', 'application/x-pem-file'],
    ] as const) {
      const res = await put(name, signer.cert, type);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
      expect(res.body).toBe('');
    }
    expect((await get('/trust')).json()).toEqual({ pem: ['a.pem', 'b.pem', 'c.pem', 'd.pem'] });
    const file = await get('/trust/c.pem');
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('text/plain');
    expect(file.body).toBe(signer.cert);
    expect(statSync(join(trustDir(), 'a.pem')).mode & 0o777).toBe(0o644);
  });

  it('describes certificates with ?verbose=true, parsed as openssl reads them', async () => {
    await put('signer.pem', signer.cert);
    await put('second.pem', other.cert);
    await put('key.pem', signer.publicKey); // a bare public key: listed, not described
    expect((await get('/trust')).json().pem).toEqual(['key.pem', 'second.pem', 'signer.pem']);
    const res = await get('/trust?verbose=true');
    expect(res.statusCode).toBe(200);
    const [second, first] = res.json().pem;
    expect(res.json().pem).toHaveLength(2);
    const serial = opensslField(signer.cert, '-serial').replace('serial=', '');
    expect(first.serial_number).toBe(
      (serial.length % 2 ? `0${serial}` : serial).toLowerCase().match(/../g)?.join(':'),
    );
    expect(first).toMatchObject({
      id: 'signer.pem',
      type: 'KeyPairSimple',
      subject_names: {
        'commonName (CN)': 'signer.example',
        'organizationName (O)': 'Test Org',
        '2.5.4.6': 'US',
      },
      have_private_key: false,
      public_key: signer.publicKey,
    });
    const notAfter = new Date(opensslField(signer.cert, '-enddate').replace('notAfter=', ''));
    expect(first.not_valid_after).toBe(notAfter.toISOString().replace('.000Z', 'Z'));
    expect(first.not_valid_before).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(second.subject_names).toEqual({
      'commonName (CN)': 'second.example',
      'organizationName (O)': 'Second',
      '2.5.4.11': 'Edge',
      '2.5.4.8': 'NY',
      '2.5.4.7': 'Town',
    });
    expect((await get('/trust?verbose=false')).json().pem).toEqual(['key.pem', 'second.pem', 'signer.pem']);
    expect((await get('/trust?verbose=yes')).statusCode).toBe(400);
  });

  it('reports have_private_key when <x>private.key beside <x>public.pem holds the matching key', async () => {
    await put('mypublic.pem', signer.cert);
    await put('otherpublic.pem', other.cert);
    writeFileSync(join(trustDir(), 'myprivate.key'), signer.privateKey);
    writeFileSync(join(trustDir(), 'otherprivate.key'), 'not a key');
    const described = (await get('/trust?verbose=true')).json().pem;
    expect(
      described.map((d: { id: string; have_private_key: boolean }) => [d.id, d.have_private_key]),
    ).toEqual([
      ['mypublic.pem', true],
      ['otherpublic.pem', false],
    ]);
  });

  it('refuses expired, CA, non-RSA and garbage content with 400 naming the trusted cert file', async () => {
    const cases: [string, string, RegExp][] = [
      ['expired.pem', expired.cert, /after valid NotAfter time/],
      ['ca.pem', ca.cert, /cert is a CA which is not supported/],
      ['ec.pem', ec.cert, /only RSA is supported/],
      ['ec-key.pem', ec.publicKey, /not RSA/],
      ['garbage.pem', 'hello, I am not a certificate', /Unable to find PEM block/],
      ['broken.pem', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n', /Unable to parse/],
      ['empty.pem', '', /Unable to find PEM block/],
    ];
    for (const [name, body, message] of cases) {
      const res = await put(name, body, 'text/plain');
      expect(res.statusCode, name).toBe(400);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json().input).toBe('trusted cert file');
      expect(res.json().error).toMatch(/^provided public key or cert is not valid; error: /);
      expect(res.json().error).toMatch(message);
    }
    expect(existsSync(trustDir()) ? readdirSync(trustDir()) : []).toEqual([]);
  });

  it('hides a file that no longer validates (expired) but lets DELETE remove it', async () => {
    await put('good.pem', signer.cert);
    writeFileSync(join(trustDir(), 'old.pem'), expired.cert);
    writeFileSync(join(trustDir(), 'junk.pem'), 'junk');
    writeFileSync(join(trustDir(), 'notes.txt'), signer.cert);
    expect((await get('/trust')).json().pem).toEqual(['good.pem']);
    expect((await get('/trust/old.pem')).statusCode).toBe(404);
    expect((await get('/trust?verbose=true')).json().pem.map((d: { id: string }) => d.id)).toEqual([
      'good.pem',
    ]);
    expect((await remove('old.pem')).statusCode).toBe(204);
    expect(existsSync(join(trustDir(), 'old.pem'))).toBe(false);
  });

  it('only takes plain .pem names: nothing can escape the trust directory', async () => {
    const suffix = await put('cert.crt', signer.cert);
    expect(suffix.statusCode).toBe(400);
    expect(suffix.json()).toEqual({ error: 'filename must have .pem suffix', input: 'trusted cert file' });
    for (const name of [
      '..%2Fescape.pem',
      '..%2F..%2Fescape.pem',
      '..%5Cescape.pem',
      '.hidden.pem',
      'a%00.pem',
    ]) {
      const res = await put(name, signer.cert);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().input).toBe('filename');
      expect((await get(`/trust/${name}`)).statusCode, name).toBe(400);
      expect((await remove(name)).statusCode, name).toBe(400);
    }
    // `/trust/..` is not the trust route at all; a name the router cannot decode is a JSON 400.
    expect((await put('%2E%2E', signer.cert)).statusCode).toBeGreaterThanOrEqual(400);
    const undecodable = await put('a%ZZ.pem', signer.cert);
    expect(undecodable.statusCode).toBe(400);
    expect(undecodable.json().input).toBe('path');
    expect(existsSync(join(dir.path, 'escape.pem'))).toBe(false);
    expect(readdirSync(dir.path).filter((f) => f.endsWith('.pem'))).toEqual([]);
    // The agent's own database is never served, whatever the name.
    expect((await get('/trust/..%2Fagent.db')).statusCode).toBe(400);
  });

  it('deletes (204), then answers 404; replaces a file of the same name', async () => {
    await put('a.pem', signer.cert);
    await put('a.pem', other.cert);
    expect((await get('/trust/a.pem')).body).toBe(other.cert);
    expect((await remove('a.pem')).statusCode).toBe(204);
    const again = await remove('a.pem');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: 'unable to find input file a.pem', input: 'filename' });
    expect((await get('/trust/a.pem')).statusCode).toBe(404);
    expect((await get('/trust')).json()).toEqual({ pem: [] });
  });

  it('logs additions and removals, and keeps the files across a restart', async () => {
    await registerNode(agent, fake);
    await put('a.pem', signer.cert);
    await put('b.pem', signer.publicKey);
    await remove('b.pem');
    const events = (await get('/eventlog?source_type=node')).json() as {
      event_code: string;
      message: string;
    }[];
    expect(events.filter((e) => e.event_code.endsWith('_trusted_cert')).map((e) => e.message)).toEqual([
      'Trusted certificate or key a.pem added.',
      'Trusted certificate or key b.pem added.',
      'Trusted certificate or key b.pem removed.',
    ]);
    await agent.stop();
    agent = await newAgent(fake.url, dir.path);
    expect((await get('/trust')).json()).toEqual({ pem: ['a.pem'] });
  });

  it('answers 405 for other methods and 404 past the file name', async () => {
    expect((await agent.app.inject({ method: 'POST', url: '/trust' })).statusCode).toBe(405);
    expect((await agent.app.inject({ method: 'POST', url: '/trust/a.pem' })).statusCode).toBe(405);
    expect((await get('/trust/a/b.pem')).statusCode).toBe(404);
  });
});
