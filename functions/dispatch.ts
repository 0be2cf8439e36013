import { endpoint } from '#functions/endpoint';
import { dispatcherWith } from '#lib/http/dispatch';
import { badInput, notFound } from '#lib/http/errors';

/** The fallbacks serve no route: no path, query or body to validate. */
const NO_ROUTE = {};

/**
 * What a path that no route serves gets: like upstream, credentials are checked first (401),
 * then the answer is a JSON 404 rather than the gateway's own body. Served by the catch-all
 * function (functions/fallback) and by every family's dispatcher for a path or method it lacks.
 */
export const unrecognizedRoute = endpoint(NO_ROUTE, {
  handle: () => {
    throw notFound('unrecognized route');
  },
});

/** A path that is not valid percent-encoding: credentials first, then a JSON 400. */
export const malformedPath = endpoint(NO_ROUTE, {
  handle: () => {
    throw badInput('invalid input: the path is not valid percent-encoding');
  },
});

/** A family's one Lambda (lib/http/dispatch.ts), answering what it does not serve as above. */
export const dispatcher = dispatcherWith({ unrecognizedRoute, malformedPath });
