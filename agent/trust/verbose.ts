import type { X509Certificate } from 'node:crypto';
import { iso } from '#lib/protocol/trust-file';

/** Subject attribute short names → the OID upstream shows (CN and O get friendly names). */
const OIDS = new Map(
  Object.entries({
    CN: 'commonName (CN)',
    O: 'organizationName (O)',
    C: '2.5.4.6',
    ST: '2.5.4.8',
    L: '2.5.4.7',
    OU: '2.5.4.11',
    street: '2.5.4.9',
    serialNumber: '2.5.4.5',
    title: '2.5.4.12',
    SN: '2.5.4.4',
    GN: '2.5.4.42',
    postalCode: '2.5.4.17',
    emailAddress: '1.2.840.113549.1.9.1',
    DC: '0.9.2342.19200300.100.1.25',
    UID: '0.9.2342.19200300.100.1.1',
  }),
);

/** node:crypto's `CN=x\nO=y` subject as upstream's map. */
function subjectNames(subject: string): Record<string, string> {
  const names: [string, string][] = [];
  for (const line of subject.split('\n')) {
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const name = line.slice(0, eq);
    names.push([OIDS.get(name) ?? name, line.slice(eq + 1)]);
  }
  return Object.fromEntries(names);
}

/** `0F:B6:04` → `0f:b6:04` (whole bytes). */
function serial(hex: string): string {
  const even = hex.length % 2 ? `0${hex}` : hex;
  return (even.toLowerCase().match(/../g) ?? []).join(':');
}

/** One `GET /trust?verbose=true` entry. */
export function describeCertificate(id: string, cert: X509Certificate, havePrivateKey: boolean) {
  return {
    type: 'KeyPairSimple',
    serial_number: serial(cert.serialNumber),
    subject_names: subjectNames(cert.subject),
    have_private_key: havePrivateKey,
    not_valid_before: iso(Date.parse(cert.validFrom)),
    not_valid_after: iso(Date.parse(cert.validTo)),
    public_key: cert.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    id,
  };
}
