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

/** scrypt's cost, log2(N): 2^14 blocks of 1 KiB, 16 MiB and ~60 ms a hash on a small core. */
const PRODUCTION_LOG_N = 14;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
let logN = PRODUCTION_LOG_N;

/**
 * Lowers the cost of new hashes, for test processes only (test/setup-env.ts): fixtures create
 * thousands of users, nodes and agbots in-process, and scrypt at full cost was a third of some
 * integration files' time. A verification reads the cost from the stored hash, so both costs
 * verify. No program calls this and no setting or variable reaches it, so no deployment can lower
 * the cost; `undefined` restores it.
 */
export function useHashCostForTests(log2N: number | undefined): void {
  if (log2N !== undefined && !(Number.isInteger(log2N) && log2N >= 4 && log2N <= PRODUCTION_LOG_N))
    throw new Error(`scrypt cost must be an integer from 4 to ${PRODUCTION_LOG_N}, not ${log2N}`);
  logN = log2N ?? PRODUCTION_LOG_N;
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const N = 2 ** logN;
  const hash = await scrypt(secret, salt, KEY_LENGTH, {
    N,
    r: BLOCK_SIZE,
    p: PARALLELISM,
    maxmem: 128 * BLOCK_SIZE * N * 2,
  });
  return `$scrypt$ln=${logN},r=${BLOCK_SIZE},p=${PARALLELISM}$${salt.toString('base64')}$${hash.toString('base64')}`;
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
    if (matches && ttl > 0) this.add(key, now + ttl);
    return matches;
  }

  /**
   * Remembers that `secret` matches `stored`, a hash this process just made of it: the first
   * request with a secret that was just set (a node's, right after its registration) is not
   * hashed a second time. True by construction, so it can never admit a wrong secret.
   */
  remember(stored: string, secret: string): void {
    const ttl = this.ttlMs();
    if (ttl <= 0 || !stored || !secret) return;
    this.add(this.key(stored, secret), Date.now() + ttl);
  }

  private add(key: string, expiresAt: number): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, expiresAt);
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
