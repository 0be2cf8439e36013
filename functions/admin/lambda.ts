import { dispatcher } from '#functions/dispatch';
import { handler as adminDropDb } from './dropdb.ts';
import { handler as adminDropDbToken } from './dropdb-token.ts';
import { handler as adminInitDb } from './initdb.ts';
import { handler as orgStatus } from './org-status.ts';
import { handler as adminOrgStatus } from './orgstatus.ts';
import { handler as adminReload } from './reload.ts';
import { adminRoutes } from './routes.ts';
import { handler as adminStatus } from './status.ts';
import { handler as adminVersion } from './version.ts';

/** The administration family's one Lambda: routes each request to its endpoint's handler (routes.ts). */
export const handler = dispatcher(adminRoutes, {
  'admin/version': adminVersion,
  'admin/status': adminStatus,
  'admin/org-status': orgStatus,
  'admin/orgstatus': adminOrgStatus,
  'admin/reload': adminReload,
  'admin/initdb': adminInitDb,
  'admin/dropdb-token': adminDropDbToken,
  'admin/dropdb': adminDropDb,
});
