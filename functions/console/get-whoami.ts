import { endpoint } from '#functions/endpoint';
import { json } from '#lib/http/responses';
import { consoleRoutes } from './routes.ts';
import { whoAmI } from './shared/rights.ts';

/** GET /v1/console/whoami: any valid credentials; no table read beyond authentication. */
export const handler = endpoint(consoleRoutes.operations.getWhoAmI, {
  handle: ({ caller }) => json(200, whoAmI(caller)),
});
