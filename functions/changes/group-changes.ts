import type * as z from 'zod';
import type { ChangeRow } from '#tables/feed/changes';
import type { changesResponse } from './responses.ts';

type Grouped = z.infer<typeof changesResponse>['changes'];

/**
 * Upstream's grouping: one entry per (org, id, resource) with every change to it, oldest first,
 * and the latest operation; entries ordered by their latest change.
 */
export function groupChanges(rows: ChangeRow[]): Grouped {
  const groups = new Map<string, Grouped[number]>();
  for (const row of rows) {
    const key = JSON.stringify([row.org, row.id, row.resource]);
    const group = groups.get(key) ?? {
      orgId: row.org,
      resource: row.resource,
      id: row.id,
      operation: '',
      resourceChanges: [],
    };
    groups.delete(key); // re-inserted last: Map order = order of latest change
    group.operation = row.operation;
    group.resourceChanges.push({ changeId: row.changeId, lastUpdated: row.lastUpdated });
    groups.set(key, group);
  }
  return [...groups.values()];
}
