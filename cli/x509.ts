import { createPublicKey, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A self-signed X.509 certificate as `hzn key create` makes it (rsapss-tool generatekeys;
 * docs/hzn-behaviour.md#hzn-key-create): subject = issuer = `O=<org>, CN=<cn>`, random serial in [1, 2^159), valid from
 * 12 h ago for `days`, key usage digitalSignature only, basic constraints present and not a CA,
 * signed SHA256-RSA. node:crypto reads certificates but cannot write one, hence this small DER writer.
 */
interface CertificateRequest {
  privateKey: KeyObject;
  organization: string;
  commonName: string;
  days: number;
  nowMs: number;
}

const tlv = (tag: number, content: Buffer): Buffer =>
  Buffer.concat([Buffer.from([tag]), length(content.length), content]);

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const explicit = (n: number, content: Buffer) => tlv(0xa0 | n, content);
const utf8 = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'));
const NULL = Buffer.from([0x05, 0x00]);
const TRUE = Buffer.from([0x01, 0x01, 0xff]);
const octets = (content: Buffer) => tlv(0x04, content);
const bits = (content: Buffer) => tlv(0x03, Buffer.concat([Buffer.from([0]), content]));

function integer(value: Buffer): Buffer {
  let start = 0;
  while (start < value.length - 1 && value[start] === 0 && (value[start + 1] as number) < 0x80) start += 1;
  const body = value.subarray(start);
  return tlv(0x02, (body[0] as number) >= 0x80 ? Buffer.concat([Buffer.from([0]), body]) : body);
}

function oid(dotted: string): Buffer {
  const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * a + b];
  for (const part of rest) {
    const chunk = [part & 0x7f];
    for (let v = part >>> 7; v > 0; v >>>= 7) chunk.unshift(0x80 | (v & 0x7f));
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime before 2050, GeneralizedTime from then on (RFC 5280 §4.1.2.5). */
function time(ms: number): Buffer {
  const iso = new Date(ms).toISOString();
  const digits = iso.slice(0, 19).replace(/[-T:]/g, '');
  const year = new Date(ms).getUTCFullYear();
  return year < 2050 ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${digits}Z`));
}

const SHA256_RSA = seq(oid('1.2.840.113549.1.1.11'), NULL);

/** A serial in [1, 2^159): 20 random bytes with the top bit cleared, never zero. */
function serial(): Buffer {
  const bytes = randomBytes(20);
  bytes[0] = (bytes[0] as number) & 0x7f;
  if (bytes.every((b) => b === 0)) bytes[19] = 1;
  return bytes;
}

export function selfSignedCertificate(req: CertificateRequest): { pem: string; serialHex: string } {
  const name = seq(
    set(seq(oid('2.5.4.10'), utf8(req.organization))),
    set(seq(oid('2.5.4.3'), utf8(req.commonName))),
  );
  const serialBytes = serial();
  const spki = createPublicKey(req.privateKey).export({ type: 'spki', format: 'der' });
  const extensions = seq(
    seq(oid('2.5.29.15'), TRUE, octets(keyUsage())),
    seq(oid('2.5.29.19'), TRUE, octets(seq())),
  );
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))),
    integer(serialBytes),
    SHA256_RSA,
    name,
    seq(time(req.nowMs - 12 * 3_600_000), time(req.nowMs + req.days * 86_400_000)),
    name,
    spki,
    explicit(3, extensions),
  );
  const signature = sign('sha256', tbs, req.privateKey);
  const der = seq(tbs, SHA256_RSA, bits(signature));
  const body = der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '');
  return {
    pem: `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`,
    serialHex: BigInt(`0x${serialBytes.toString('hex')}`).toString(16),
  };
}

/** KeyUsage BIT STRING with digitalSignature (bit 0) only: 7 unused bits, 0x80. */
const keyUsage = () => Buffer.from([0x03, 0x02, 0x07, 0x80]);
