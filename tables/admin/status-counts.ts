import { batchGet } from '../kernel/batch-get.ts';
import { orgKeys } from '../keys/org.ts';
import { isRegistered, nodeRepository } from '../node/entity.ts';
import { COUNTERS, type Counts, zeroCounts } from '../org/stats.ts';

const toCounts = (raw: Record<string, unknown> | undefined): Counts => {
  const counts = zeroCounts();
  for (const counter of COUNTERS) counts[counter] = Number(raw?.[counter] ?? 0);
  return counts;
};

/**
 * The counters of each listed org that exists (its `ORG` item is there), in one BatchGetItem of
 * the orgs' `ORG` and `STATS` items. Missing orgs are absent from the map.
 */
export async function countsOfOrgs(orgs: string[]): Promise<Map<string, Counts>> {
  const unique = [...new Set(orgs)];
  const items = await batchGet(unique.flatMap((org) => [orgKeys.record(org), orgKeys.stats(org)]));
  const byKey = new Map(items.map((item) => [`${item.pk}|${item.sk}`, item]));
  const result = new Map<string, Counts>();
  for (const org of unique) {
    const { pk } = orgKeys.record(org);
    if (!byKey.has(`${pk}|ORG`)) continue;
    result.set(org, toCounts(byKey.get(`${pk}|STATS`)));
  }
  return result;
}

/** A node's view of itself: one node, registered or not, and its agreements (its messages arrive later). */
export async function countsOfNode(org: string, id: string): Promise<Counts> {
  const counts = zeroCounts();
  const { Item } = await nodeRepository.get({ org, id });
  if (!Item) return counts;
  counts.nodes = 1;
  counts.registeredNodes = isRegistered(Item) ? 1 : 0;
  counts.nodeAgreements = Item.agreementCount ?? 0;
  return counts;
}

export function sumCounts(all: Iterable<Counts>): Counts {
  const total = zeroCounts();
  for (const counts of all) for (const counter of COUNTERS) total[counter] += counts[counter];
  return total;
}
