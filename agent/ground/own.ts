/**
 * Tables indexed by a caller's (or the Exchange's) string. `table[key]` on a plain object reaches
 * Object.prototype for `constructor`, `toString` or `__proto__`, and `table[key] = v` with
 * `__proto__` replaces the prototype instead of storing an entry; these helpers never do either.
 */

/** The value stored under `key` itself, never one inherited from a prototype. */
export function own<T>(table: Readonly<Record<string, T>> | null | undefined, key: string): T | undefined {
  return table && typeof table === 'object' && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** A copy of the own entries on a null prototype: reads, writes and deletes of any key stay plain data. */
export function ownTable<T>(table?: Readonly<Record<string, T>> | null): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  if (table && typeof table === 'object') for (const [key, value] of Object.entries(table)) out[key] = value;
  return out;
}
