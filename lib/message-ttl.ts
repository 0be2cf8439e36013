import * as z from 'zod';

/**
 * A message's `ttl` (agbot messages; node messages reuse it): whole seconds, at least 1. Upstream
 * takes any ttl and its drivers send 8,640,000 s, so a longer ttl than the server allows is cut to
 * `limits.maxMessageTtlSeconds` instead of refused; 0 and below stay a 400 (already expired).
 */
export const messageTtl = z
  .number()
  .int('must be an integer')
  .min(1, 'must be at least 1 (seconds)')
  .max(2147483647, 'must be a 32-bit integer');

/** When a message sent at `sent` with `ttl` expires, the ttl clamped to `maxTtlSeconds`. */
export function messageExpiry(sent: Date, ttl: number, maxTtlSeconds: number): Date {
  return new Date(sent.getTime() + Math.min(ttl, maxTtlSeconds) * 1000);
}
