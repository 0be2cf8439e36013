import { orgChangeRows } from './changes.ts';

export { tableSnapshot } from '#test/e2e/fuzz/table-snapshot';

/** The change rows of an org's feed, oldest first, as `{id, resource, operation}` (tests of writers). */
export async function changeRows(
  org: string,
): Promise<{ id: string; resource: string; operation: string }[]> {
  return (await orgChangeRows(org)).map(({ id, resource, operation }) => ({ id, resource, operation }));
}
