import { filterPrefix, matchesAllFilters } from '#lib/like';
import type { AgbotRecord } from '#tables/agbot/records';
import type { ListAgbotsQuery } from './schemas.ts';

/**
 * The list's query filters (docs/exchange.md#agbots): `idfilter` against `org/id`, `name`, `owner`
 * (`org/username`); each exact, or SQL LIKE when it holds `%`. Upstream decides LIKE for `owner`
 * by looking at `name` (a bug); here each filter decides for itself.
 */
export const agbotListFilter = (query: ListAgbotsQuery): ((agbot: AgbotRecord) => boolean) =>
  matchesAllFilters<AgbotRecord>(
    [query.idfilter, (agbot) => `${agbot.org}/${agbot.id}`],
    [query.name, (agbot) => agbot.name],
    [query.owner, (agbot) => agbot.owner],
  );

/**
 * What every id `idfilter` can match in `org` starts with (a begins_with on gsi1sk), or undefined
 * when it can match none of that org's agbots.
 */
export function idPrefix(org: string, idfilter: string | undefined): string | undefined {
  const literal = filterPrefix(idfilter);
  const orgPart = `${org}/`;
  if (literal.startsWith(orgPart)) return literal.slice(orgPart.length);
  return orgPart.startsWith(literal) ? '' : undefined;
}
