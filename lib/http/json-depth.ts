/**
 * Deepest a JSON body may nest (`{}` is 1 level, `{"a":[]}` 2). A body's fields become an item's
 * attributes, one level less deep, and DynamoDB refuses an item nested more than 32 levels.
 */
export const MAX_BODY_DEPTH = 32;

/** Whether a parsed JSON value nests deeper than `max` levels. Iterative: no stack to overflow. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [next, depth] = pending.pop() as [unknown, number];
    if (typeof next !== 'object' || next === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(next)) pending.push([child, depth + 1]);
  }
  return false;
}
