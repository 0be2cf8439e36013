import { execFileSync } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deploymentString, signDeployment, verifyDeployment } from '#lib/protocol/deployment-signature';
import { lastingProblem } from '#lib/protocol/trust-file';
import { startRecordingServer } from './test-support/recording-server.ts';
import { hzn } from './test-support/run-hzn.ts';
import { tempDir } from './test-support/temp-dir.ts';

/** `hzn key create` (docs/hzn-behaviour.md#hzn-key-create) and the config files (docs/hzn-behaviour.md#config-files). */
describe('key create', () => {
  it('writes a PKCS#1 private key (owner-only) and a self-signed certificate the agent accepts', async () => {
    const home = tempDir('hzn-key-');
    const result = await hzn(['key', 'create', 'My Org', 'me@example.com', '-l', '2048'], { home });
    expect(result.code).toBe(0);
    const privatePath = join(home, '.hzn', 'keys', 'service.private.key');
    const publicPath = join(home, '.hzn', 'keys', 'service.public.pem');
    expect(result.stdout).toContain(`Created keys:\n \t${privatePath}\n\t${publicPath}\n`);
    const privatePem = readFileSync(privatePath, 'utf8');
    expect(privatePem).toMatch(/^-----BEGIN RSA PRIVATE KEY-----/);
    expect(statSync(privatePath).mode & 0o777).toBe(0o600);
    const cert = new X509Certificate(readFileSync(publicPath));
    expect(cert.subject).toBe('O=My Org\nCN=me@example.com');
    expect(cert.issuer).toBe(cert.subject);
    expect(cert.ca).toBe(false);
    const extensions = execFileSync('openssl', ['x509', '-noout', '-text'], {
      input: readFileSync(publicPath),
    }).toString();
    expect(extensions).toMatch(/X509v3 Key Usage: critical\s+Digital Signature\n/);
    expect(extensions).toMatch(/X509v3 Basic Constraints: critical\s+CA:FALSE\n/);
    expect(extensions).toContain('Signature Algorithm: sha256WithRSAEncryption');
    expect(lastingProblem(cert)).toBeUndefined();
    const days = (Date.parse(cert.validTo) - Date.parse(cert.validFrom)) / 86_400_000;
    expect(days).toBeCloseTo(1461.5, 1);
    // What publish signs with the private key, the certificate verifies.
    const text = deploymentString({ services: { s: { image: 'x' } } });
    const signature = signDeployment(text, createPrivateKey(privatePem));
    expect(verifyDeployment(text, signature, readFileSync(publicPath, 'utf8'))).toBe(true);
  });

  it('-d names the files after the org and serial; existing files need -f or a yes; bad -d is a usage error', async () => {
    const out = tempDir('hzn-keydir-');
    expect((await hzn(['key', 'create', 'a.b', 'cn', '-l', '1024', '-d', out])).code).toBe(0);
    const names = readdirSync(out).sort();
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^ab-[0-9a-f]+-private\.key$/);
    expect(names[1]).toMatch(/^ab-[0-9a-f]+-public\.pem$/);
    const k = join(out, 'k.key');
    const p = join(out, 'p.pem');
    writeFileSync(k, 'old');
    writeFileSync(p, 'old');
    const declined = await hzn(['key', 'create', 'o', 'cn', '-l', '1024', '-k', k, '-K', p], {
      stdin: 'n\n',
    });
    expect(declined.stdout).toBe(`File ${k} and ${p} exist, do you want to overwrite? [y/N]: Exiting.\n`);
    expect(readFileSync(k, 'utf8')).toBe('old');
    expect((await hzn(['key', 'create', 'o', 'cn', '-l', '1024', '-k', k, '-K', p, '-f'])).code).toBe(0);
    expect(readFileSync(k, 'utf8')).toMatch(/PRIVATE KEY/);
    expect(await hzn(['key', 'create', 'o', 'cn', '-d', join(out, 'none')])).toMatchObject({
      code: 1,
      stderr: `hzn: error: path '${join(out, 'none')}' does not exist, try --help\n`,
    });
    expect(await hzn(['key', 'create', 'o', 'cn', '-l', '512'])).toMatchObject({ code: 1 });
  });
});

describe('config files', () => {
  it('real env > ~/.hzn/hzn.json > /etc/default/horizon > /etc/horizon/hzn.json; project hzn.json with MetadataVars', async () => {
    const home = tempDir('hzn-home-');
    const etc = tempDir('hzn-etc-');
    const cwd = tempDir('hzn-project-');
    mkdirSync(join(home, '.hzn'));
    mkdirSync(join(etc, 'horizon'));
    mkdirSync(join(etc, 'default'));
    writeFileSync(
      join(etc, 'horizon', 'hzn.json'),
      '{"HZN_EXCHANGE_URL": "http://etc-json/v1", "HZN_ORG_ID": "etc", "HORIZON_URL": "http://etc-json"}',
    );
    writeFileSync(
      join(etc, 'default', 'horizon'),
      '# comment\nHZN_EXCHANGE_URL=http://defaults/v1\nHZN_ORG_ID=defaults\n',
    );
    writeFileSync(join(home, '.hzn', 'hzn.json'), '/* mine */ {"HZN_ORG_ID": "home", "Unknown": 1}');
    writeFileSync(join(cwd, 'service.definition.json'), '{}');
    writeFileSync(
      join(cwd, 'hzn.json'),
      '{"MetadataVars": {"SERVICE_NAME": "svc"}, "HZN_ORG_ID": "project"}',
    );
    const policy = join(cwd, 'p.json');
    writeFileSync(policy, '{"label": "$SERVICE_NAME $HZN_ORG_ID"}');
    // --dry-run: the POST is not sent, but the URL it would go to is printed with -v.
    const result = await hzn(['-v', '--dry-run', 'policy', 'update', '-f', policy], {
      home,
      etcDir: etc,
      cwd,
      env: { HORIZON_URL: 'http://real-env' },
    });
    expect(result.stderr).toContain('[verbose] POST http://real-env/node/policy\n');
    const ex = await hzn(['-v', 'exchange', 'version'], { home, etcDir: etc, cwd, env: {} });
    expect(ex.stderr).toContain('[verbose] GET http://defaults/v1/admin/version\n');
  });

  it('the values from the files reach the input-file substitution; bad config JSON is exit 7', async () => {
    const server = await startRecordingServer();
    try {
      server.on({ 'POST /node/userinput': { status: 201, body: {} } });
      const home = tempDir('hzn-home-');
      const cwd = tempDir('hzn-project-');
      mkdirSync(join(home, '.hzn'));
      writeFileSync(join(home, '.hzn', 'hzn.json'), `{"HZN_ORG_ID": "home", "HORIZON_URL": "${server.url}"}`);
      mkdirSync(join(cwd, 'horizon'));
      writeFileSync(join(cwd, 'horizon', 'service.definition.json'), '{}');
      writeFileSync(
        join(cwd, 'horizon', 'hzn.json'),
        '{"MetadataVars": {"SERVICE_NAME": "svc"}, "HZN_ORG_ID": "project"}',
      );
      const input = join(cwd, 'in.json');
      writeFileSync(
        input,
        `[{"serviceOrgid": "$HZN_ORG_ID", "serviceUrl": "$\{SERVICE_NAME}", "inputs": []}] /* c */`,
      );
      expect((await hzn(['userinput', 'add', '-f', input], { home, cwd, env: {} })).code).toBe(0);
      expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual([
        { serviceOrgid: 'home', serviceUrl: 'svc', inputs: [] },
      ]);
      writeFileSync(join(home, '.hzn', 'hzn.json'), '{"HZN_ORG_ID": ');
      const bad = await hzn(['version'], { home, env: {} });
      expect(bad.code).toBe(7);
      expect(bad.stderr).toMatch(/^Error: failed to unmarshal .*hzn\.json/);
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
