/** Table-wide administration items (partition `ADMIN`). */
export const adminKeys = {
  /** The one-time token of `/admin/dropdb` (tables/admin/drop-token.ts). */
  dropToken: () => ({ pk: 'ADMIN', sk: 'DROPDB_TOKEN' }),
};
