export const identityKeys = {
  /**
   * What authentication needs of `org/id` as node, agbot and user (one map attribute per kind), so
   * a lookup is one GetItem: written in the same transaction as each of those records (tables/identity/).
   */
  principal: (org: string, id: string) => ({ pk: `PRINCIPAL#${org}/${id}`, sk: 'PRINCIPAL' }),
  /** Written when the principal backfill (tables/identity/backfill.ts) finished on this table. */
  backfilled: () => ({ pk: 'ADMIN', sk: 'PRINCIPALS_BACKFILLED' }),
};
