import { LAST_UNREGISTRATION_KEY } from '../events/eventlog.ts';
import { parseSelectors } from '../events/selectors.ts';
import type { RoutesPlugin } from './plugin.ts';

/**
 * GET /eventlog (current registration: events after the last unregistration) and
 * GET /eventlog/all (every stored event), both filtered by selectors in the query string.
 */
export const eventLogRoutes: RoutesPlugin = async (app, { ctx }) => {
  const query = (url: string) => url.slice(url.indexOf('?') + 1 || url.length);
  const selectors = (url: string) => parseSelectors(query(url), Math.floor(ctx.now() / 1000));

  app.get('/eventlog', async (req) => {
    const filters = selectors(req.url);
    return ctx.store.events(ctx.store.get<number>(LAST_UNREGISTRATION_KEY) ?? 0, filters);
  });

  app.get('/eventlog/all', async (req) => ctx.store.events(0, selectors(req.url)));
};
