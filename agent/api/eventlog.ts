import { LAST_UNREGISTRATION_KEY } from '../events/eventlog.ts';
import { eventLogJson } from '../events/eventlog-json.ts';
import { parseSelectors } from '../events/selectors.ts';
import type { RoutesPlugin } from './plugin.ts';

/**
 * GET /eventlog (current registration: events after the last unregistration) and
 * GET /eventlog/all (every stored event), both filtered by selectors in the query string;
 * GET /eventlog/surface (the errors surfaced to the Exchange, agent/status-report).
 */
export const eventLogRoutes: RoutesPlugin = async (app, { ctx }) => {
  const query = (url: string) => url.slice(url.indexOf('?') + 1 || url.length);
  const selectors = (url: string) => parseSelectors(query(url), Math.floor(ctx.now() / 1000));

  // The JSON is written by the store (and streamed when long): see eventLogJson.
  const json = 'application/json; charset=utf-8';
  app.get('/eventlog', async (req, reply) => {
    const filters = selectors(req.url);
    const after = ctx.store.get<number>(LAST_UNREGISTRATION_KEY) ?? 0;
    return reply.type(json).send(eventLogJson(ctx.store, after, filters));
  });

  // anax's GET /eventlog/surface: the errors surfaced to the Exchange that are not hidden.
  app.get('/eventlog/surface', async () => ctx.statusReport?.surfaced() ?? []);

  app.get('/eventlog/all', async (req, reply) =>
    reply.type(json).send(eventLogJson(ctx.store, 0, selectors(req.url))),
  );
};
