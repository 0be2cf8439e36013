/**
 * Whether a parsed JSON value holds the key `__proto__` at any depth. JSON.parse keeps it as an own
 * key, but every later copy into a plain object (zod's records, spreads) turns it into a prototype
 * assignment and silently drops it, so a client would be told it was stored. Iterative: bodies may
 * nest thousands of levels deep.
 */
export function hasProtoKey(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== 'object' || next === null) continue;
    if (!Array.isArray(next) && Object.hasOwn(next, '__proto__')) return true;
    // A loop, not push(...values): a spread of a huge array exceeds the call's argument limit.
    for (const child of Object.values(next)) pending.push(child);
  }
  return false;
}
