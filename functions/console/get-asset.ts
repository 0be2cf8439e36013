import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { consoleRoutes } from './routes.ts';
import { assetResponse, consoleFiles } from './shared/assets.ts';

/** GET /v1/console/assets/{asset}: anonymous; one built file by its hashed name. */
export const handler = endpoint(consoleRoutes.operations.getConsoleAsset, {
  handle({ path }) {
    const body = consoleFiles()?.assets.get(path.asset);
    if (!body) throw notFound(`no console asset ${path.asset}`);
    return assetResponse(path.asset, body);
  },
});
