import { createHash, randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

/**
 * Passwords and tokens are stored only as scrypt hashes (memory-hard, in node:crypto, so no native
 * addon). Format: `$scrypt$ln=14,r=8,p=1$<salt b64>$<hash b64>`.
 */
const scrypt = promisify(scryptCallback) as (
  secret: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

const LOG_N = 14;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
const maxmem = 128 * BLOCK_SIZE * 2 ** LOG_N * 2;

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(secret, salt, KEY_LENGTH, {
    N: 2 ** LOG_N,
    r: BLOCK_SIZE,
    p: PARALLELISM,
    maxmem,
  });
  return `$scrypt$ln=${LOG_N},r=${BLOCK_SIZE},p=${PARALLELISM}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

const FORMAT = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;

async function verifyUncached(stored: string, secret: string): Promise<boolean> {
  const match = FORMAT.exec(stored);
  if (!match) return false;
  const [, logN, r, p, saltB64, hashB64] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const expected = Buffer.from(hashB64, 'base64');
  const N = 2 ** Number(logN);
  const actual = await scrypt(secret, Buffer.from(saltB64, 'base64'), expected.length, {
    N,
    r: Number(r),
    p: Number(p),
    maxmem: 128 * Number(r) * N * 2,
  });
  return timingSafeEqual(actual, expected);
}

/**
 * Remembers, for a short while, that a secret matched a stored hash, so a warm request does not
 * re-hash. The key digests hash and secret together: the secret is never kept, and a changed
 * password (a new stored hash) can never hit an old entry.
 */
export class VerificationCache {
  private readonly entries = new Map<string, number>();

  constructor(
    private readonly ttlMs: () => number,
    private readonly maxEntries = 10_000,
  ) {}

  private key(stored: string, secret: string): string {
    return createHash('sha256').update(stored).update('\0').update(secret).digest('base64');
  }

  async verify(stored: string | undefined, secret: string): Promise<boolean> {
    if (!stored || !secret) return false;
    const key = this.key(stored, secret);
    const expiresAt = this.entries.get(key);
    const now = Date.now();
    if (expiresAt !== undefined && expiresAt > now) return true;
    this.entries.delete(key);
    const matches = await verifyUncached(stored, secret);
    const ttl = this.ttlMs();
    if (matches && ttl > 0) {
      if (this.entries.size >= this.maxEntries) {
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
      this.entries.set(key, now + ttl);
    }
    return matches;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Compares two strings in constant time (for root's password, held in configuration). */
export function safeEqual(a: string, b: string): boolean {
  const digestA = createHash('sha256').update(a).digest();
  const digestB = createHash('sha256').update(b).digest();
  return timingSafeEqual(digestA, digestB);
}

/** What every read of a password or token returns. */
export const MASKED = '***************';

export const randomToken = (): string => randomBytes(32).toString('base64url');
