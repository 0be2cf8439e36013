/**
 * Upstream's list filters: a value containing `%` is an SQL LIKE pattern (`%` any run, `_` any one
 * character, case-sensitive); any other value must match exactly. Undefined matches everything.
 */
export function matchesFilter(value: string, filter: string | undefined): boolean {
  if (filter === undefined) return true;
  if (!filter.includes('%')) return value === filter;
  const pattern = filter
    .split('')
    .map((ch) => (ch === '%' ? '.*' : ch === '_' ? '.' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${pattern}$`, 's').test(value);
}

/** The literal text every match of `filter` starts with (for a begins_with key condition). */
export function filterPrefix(filter: string | undefined): string {
  if (filter === undefined) return '';
  if (!filter.includes('%')) return filter;
  return filter.split(/[%_]/)[0] ?? '';
}
