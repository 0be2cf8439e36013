import { matchesAllFilters } from '#lib/like';
import type { PatternRecord } from '#tables/pattern/records';
import type { ListPatternsQuery } from './schemas.ts';

/** The list and catalog filters (docs/exchange-catalog.md#pattern-visibility, #catalog-of-patterns): LIKE with `%`, else exact; `public` a boolean. */
export function patternListFilter(query: ListPatternsQuery & { organization?: string | undefined }) {
  const matches = matchesAllFilters<PatternRecord>(
    [query.idfilter, (p) => `${p.org}/${p.name}`],
    [query.owner, (p) => p.owner],
    [query.label, (p) => p.label],
    [query.description, (p) => p.description],
    [query.clusternamespace, (p) => p.clusterNamespace],
    [query.organization, (p) => p.org],
  );
  return (record: PatternRecord) =>
    matches(record) && (query.public === undefined || record.public === query.public);
}
