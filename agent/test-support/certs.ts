import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Signing certificates made at test time with the machine's `openssl`, shaped like `hzn key
 * create` makes them: RSA, self-signed, not a CA, digital signature only.
 */
export interface TestCert {
  cert: string;
  privateKey: string;
  publicKey: string;
}

const EXTENSIONS = [
  '-addext',
  'basicConstraints=critical,CA:FALSE',
  '-addext',
  'keyUsage=critical,digitalSignature',
];

function inTemp<T>(run: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'agent-certs-'));
  try {
    return run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const openssl = (dir: string, args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });

/** A key pair (RSA 2048 unless `key` reuses one). */
export function rsaKey(): string {
  return inTemp((dir) => {
    openssl(dir, ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'k.pem']);
    return readFileSync(join(dir, 'k.pem'), 'utf8');
  });
}

/** A certificate valid from now for `days`, with the given subject (e.g. `/CN=x/O=y/C=US`). */
export function makeCert(
  options: { subject?: string; days?: number; key?: string; ca?: boolean; keyType?: 'rsa' | 'ec' } = {},
): TestCert {
  return inTemp((dir) => {
    if (options.key) writeFileSync(join(dir, 'k.pem'), options.key);
    else if (options.keyType === 'ec')
      openssl(dir, ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', 'k.pem']);
    else openssl(dir, ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'k.pem']);
    const extensions = options.ca ? ['-addext', 'basicConstraints=critical,CA:TRUE'] : EXTENSIONS;
    openssl(dir, [
      'req',
      '-x509',
      '-key',
      'k.pem',
      '-out',
      'c.pem',
      '-days',
      String(options.days ?? 30),
      '-subj',
      options.subject ?? '/CN=signer.example/O=Test Org/C=US',
      ...extensions,
    ]);
    openssl(dir, ['pkey', '-in', 'k.pem', '-pubout', '-out', 'pub.pem']);
    return {
      cert: readFileSync(join(dir, 'c.pem'), 'utf8'),
      privateKey: readFileSync(join(dir, 'k.pem'), 'utf8'),
      publicKey: readFileSync(join(dir, 'pub.pem'), 'utf8'),
    };
  });
}

/** A certificate whose validity ended in 2020 (`openssl ca` can set past dates; `req` cannot). */
export function makeExpiredCert(key?: string): TestCert {
  return inTemp((dir) => {
    if (key) writeFileSync(join(dir, 'k.pem'), key);
    else openssl(dir, ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'k.pem']);
    writeFileSync(join(dir, 'index.txt'), '');
    writeFileSync(join(dir, 'serial'), '01\n');
    writeFileSync(
      join(dir, 'ca.cnf'),
      [
        '[ca]',
        'default_ca = local',
        '[local]',
        'database = index.txt',
        'new_certs_dir = .',
        'serial = serial',
        'default_md = sha256',
        'policy = any',
        'x509_extensions = leaf',
        'unique_subject = no',
        '[any]',
        'commonName = supplied',
        'organizationName = optional',
        '[leaf]',
        'basicConstraints = critical,CA:FALSE',
        'keyUsage = critical,digitalSignature',
        '',
      ].join('\n'),
    );
    openssl(dir, ['req', '-new', '-key', 'k.pem', '-subj', '/CN=expired.example/O=Old Org', '-out', 'r.csr']);
    openssl(dir, [
      'ca',
      '-batch',
      '-notext',
      '-config',
      'ca.cnf',
      '-selfsign',
      '-keyfile',
      'k.pem',
      '-in',
      'r.csr',
      '-startdate',
      '20200101000000Z',
      '-enddate',
      '20200201000000Z',
      '-out',
      'c.pem',
    ]);
    openssl(dir, ['pkey', '-in', 'k.pem', '-pubout', '-out', 'pub.pem']);
    return {
      cert: readFileSync(join(dir, 'c.pem'), 'utf8'),
      privateKey: readFileSync(join(dir, 'k.pem'), 'utf8'),
      publicKey: readFileSync(join(dir, 'pub.pem'), 'utf8'),
    };
  });
}
