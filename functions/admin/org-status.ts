import type * as z from 'zod';
import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { json } from '#lib/http/responses';
import { adminRoutes } from './routes.ts';
import type { adminStatus } from './shared/responses.ts';
import { OPERATING_NORMALLY, statusFigures } from './shared/status-figures.ts';

/** GET /v1/orgs/{organization}/status: READ on the org; like /admin/status restricted to that org. */
export const handler = endpoint(adminRoutes.operations.orgStatus, {
  authorize: ({ caller, path }) => authorize(caller, { type: 'org', org: path.organization }, 'READ'),
  async handle({ caller, path }) {
    const { schemaVersion, ...figures } = await statusFigures(caller, path.organization);
    // Upstream names the field SchemaVersion here and dbSchemaVersion in /admin/status.
    const body: z.infer<typeof adminStatus> = {
      msg: OPERATING_NORMALLY,
      ...figures,
      SchemaVersion: schemaVersion,
    };
    return json(200, body);
  },
});
