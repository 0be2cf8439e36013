import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { consoleRoutes } from './routes.ts';
import { consoleFiles, pageResponse } from './shared/assets.ts';

/** GET /v1/console/index.html: anonymous; the page (its script signs in), 404 when the console was not built. */
export const handler = endpoint(consoleRoutes.operations.getConsolePage, {
  handle({ event }) {
    const files = consoleFiles();
    if (!files) throw notFound('the console is not built (npm run build:console)');
    return pageResponse(files, event.headers['if-none-match']);
  },
});
