import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { verificationCache } from '#lib/auth/authenticate';
import { hashSecret, MASKED, safeEqual, useHashCostForTests, VerificationCache } from '#lib/auth/secrets';
import { getConfig } from '#lib/config';

describe('secret hashing', () => {
  it('hashes at a lower cost only while a test asks, and verifies either cost', async () => {
    useHashCostForTests(10);
    try {
      const cheap = await hashSecret('s3cret');
      expect(cheap).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$/);
      expect(await new VerificationCache(() => 0).verify(cheap, 's3cret')).toBe(true);
      expect(() => useHashCostForTests(3)).toThrow(/from 4 to 14/);
      expect(() => useHashCostForTests(15)).toThrow(/from 4 to 14/);
    } finally {
      useHashCostForTests(undefined);
    }
    expect(await hashSecret('s3cret')).toMatch(/^\$scrypt\$ln=14,/);
  });

  it('is lowered by nothing but the test set-up', () => {
    const callers: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!['node_modules', 'dist', '.git', 'test'].includes(entry.name)) walk(path);
        } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
          if (readFileSync(path, 'utf8').includes('useHashCostForTests(')) callers.push(path);
        }
      }
    };
    walk('.');
    expect(callers).toEqual(['lib/auth/secrets.ts']);
  });

  it('stores a salted scrypt hash that verifies only the original secret', async () => {
    const first = await hashSecret('s3cret');
    const second = await hashSecret('s3cret');
    expect(first).toMatch(/^\$scrypt\$ln=14,r=8,p=1\$/);
    expect(first).not.toContain('s3cret');
    expect(first).not.toBe(second);
    const cache = new VerificationCache(() => 0);
    expect(await cache.verify(first, 's3cret')).toBe(true);
    expect(await cache.verify(first, 's3cret!')).toBe(false);
  });

  it('never matches an empty stored hash or an empty secret', async () => {
    const cache = new VerificationCache(() => 60_000);
    expect(await cache.verify('', 'x')).toBe(false);
    expect(await cache.verify(undefined, 'x')).toBe(false);
    expect(await cache.verify(await hashSecret('x'), '')).toBe(false);
  });

  it('remembers a success so a warm check does not re-hash, and forgets it when the hash changes', async () => {
    const cache = new VerificationCache(() => 60_000);
    const stored = await hashSecret('pw');
    const cold = performance.now();
    expect(await cache.verify(stored, 'pw')).toBe(true);
    const coldMs = performance.now() - cold;
    const warm = performance.now();
    expect(await cache.verify(stored, 'pw')).toBe(true);
    const warmMs = performance.now() - warm;
    expect(cache.size).toBe(1);
    expect(warmMs).toBeLessThan(coldMs);
    // A new password is a new stored hash: the old entry cannot vouch for it.
    expect(await cache.verify(await hashSecret('other'), 'pw')).toBe(false);
  });

  it('remembers a hash it was handed with its secret (just made from it), for that secret only', async () => {
    // A stored form no hash would ever verify: only the remembered entry can answer true.
    const unverifiable = '$scrypt$ln=10,r=8,p=1$c2FsdA==$bm90LWEtaGFzaA==';
    const cache = new VerificationCache(() => 60_000);
    cache.remember(unverifiable, 'pw');
    expect(await cache.verify(unverifiable, 'pw')).toBe(true);
    expect(await cache.verify(unverifiable, 'pw2')).toBe(false);
    const off = new VerificationCache(() => 0);
    off.remember(unverifiable, 'pw');
    expect(off.size).toBe(0);
    expect(await off.verify(unverifiable, 'pw')).toBe(false);
  });

  it("the instance's memo keeps a match for authVerifiedSeconds (an hour), not authCacheSeconds (a minute)", async () => {
    expect([getConfig().authCacheSeconds, getConfig().authVerifiedSeconds]).toEqual([60, 3600]);
    // A stored form no hash would ever verify: only the remembered entry can answer true.
    const unverifiable = '$scrypt$ln=10,r=8,p=1$bWVtbw==$bm90LWEtaGFzaA==';
    vi.useFakeTimers();
    try {
      verificationCache.remember(unverifiable, 'pw');
      vi.advanceTimersByTime(61_000);
      // The identity would be read again by now; its hash still matches without a new scrypt.
      expect(await verificationCache.verify(unverifiable, 'pw')).toBe(true);
      vi.advanceTimersByTime(3_600_000);
      expect(await verificationCache.verify(unverifiable, 'pw')).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not cache failures', async () => {
    const cache = new VerificationCache(() => 60_000);
    expect(await cache.verify(await hashSecret('pw'), 'wrong')).toBe(false);
    expect(cache.size).toBe(0);
  });

  it('compares root passwords in constant time', () => {
    expect(safeEqual('a', 'a')).toBe(true);
    expect(safeEqual('a', 'b')).toBe(false);
    expect(MASKED).toBe('***************');
  });
});
