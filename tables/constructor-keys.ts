/**
 * The DynamoDB document client picks how to marshal an object by reading `value.constructor.name`.
 * A caller's map with its own key `constructor` (an org tag, a software version, a user-input JSON
 * value) misleads it: it throws (a 500) or stores the map as a set or a string. Such objects are
 * handed to it as `Map`s, which it marshals entry by entry whatever the keys. Unchanged input is
 * returned as is (no copy).
 */
export function withConstructorKeysAsMaps(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(withConstructorKeysAsMaps);
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  if (!isPlainObject(value)) return value;
  const entries = Object.entries(value).map(([key, item]) => [key, withConstructorKeysAsMaps(item)] as const);
  if (Object.hasOwn(value, 'constructor')) return new Map(entries);
  return entries.some(([key, item]) => item !== value[key]) ? Object.fromEntries(entries) : value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
