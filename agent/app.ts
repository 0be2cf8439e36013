import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { agreementRoutes } from './api/agreement.ts';
import { attributeRoutes } from './api/attribute.ts';
import { configStateRoutes } from './api/configstate.ts';
import { eventLogRoutes } from './api/eventlog.ts';
import { parseJsonBody } from './api/json-body.ts';
import { nodeRoutes } from './api/node.ts';
import { nodeManagementRoutes } from './api/nodemanagement.ts';
import { policyRoutes } from './api/policy.ts';
import { requestGuard, takesTextBody } from './api/request-guard.ts';
import { serviceRoutes } from './api/service.ts';
import { statusRoutes } from './api/status.ts';
import { trustRoutes } from './api/trust.ts';
import { userInputRoutes } from './api/userinput.ts';
import { AgentError } from './ground/errors.ts';
import type { AgentContext } from './runtime/context.ts';

/**
 * The local REST API: routes are Fastify plugins (one per resource, schemas beside them). Errors
 * are always `{"error","input"}` JSON; a known path with another method → 405, unknown path → 404.
 */
/** Each app's routes: URL pattern → methods (recorded as they are added). */
const routeTables = new WeakMap<FastifyInstance, ReadonlyMap<string, ReadonlySet<string>>>();

/** The routes of an app made by buildApp (the fuzz suite walks every one of them). */
export const routesOf = (app: FastifyInstance): ReadonlyMap<string, ReadonlySet<string>> =>
  routeTables.get(app) ?? new Map();

export async function buildApp(ctx: AgentContext): Promise<FastifyInstance> {
  // What a web page on the host could send is refused first (request-guard.ts).
  const refusal = requestGuard(ctx.config.allowedHosts);
  const app = Fastify({
    logger: false,
    return503OnClosing: true,
    forceCloseConnections: true,
    // A path the router cannot decode (e.g. `%ZZ`) is a 400 in our JSON shape too.
    frameworkErrors: (err, req, reply) => {
      const refused = refusal(req, { textBody: takesTextBody(req.url) });
      if (refused) return void (reply as unknown as FastifyReply).code(refused.status).send(refused.body());
      void (reply as unknown as FastifyReply).code(400).send({ error: err.message, input: 'path' });
    },
  });
  const known = new Map<string, Set<string>>();
  routeTables.set(app, known);
  app.addHook('onRoute', (route) => {
    const methods = known.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    known.set(route.url, methods);
  });
  /** The methods of the route pattern a path matches (`/trust/:filename` matches `/trust/a.pem`). */
  const methodsOf = (path: string) => {
    const exact = known.get(path);
    if (exact) return exact;
    const segments = path.split('/');
    for (const [url, methods] of known) {
      const pattern = url.split('/');
      const fits =
        pattern.length === segments.length &&
        pattern.every((part, i) => (part.startsWith(':') ? segments[i] !== '' : part === segments[i]));
      if (fits) return methods;
    }
    return undefined;
  };

  app.addHook('onRequest', async (req) => {
    const refused = refusal(req);
    if (refused) throw refused;
  });
  // One JSON parser (json-body.ts); the guard lets only application/json bodies reach it.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(String(body)));
    } catch (err) {
      done(Object.assign(err as Error, { statusCode: 400 }), undefined);
    }
  });

  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('cache-control', 'no-cache, no-store, must-revalidate');
    reply.header('pragma', 'no-cache, no-store');
    return payload;
  });
  app.addHook('onResponse', async (req, reply) => {
    const fields = {
      method: req.method,
      path: req.url.split('?')[0],
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    if (req.method === 'GET' || req.method === 'HEAD') ctx.log.debug('request', fields);
    else ctx.log.info('request', fields);
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AgentError) return reply.code(err.status).send(err.body());
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply
        .code(status)
        .send({ error: `Input body couldn't be deserialized: ${err.message}`, input: 'body' });
    }
    ctx.log.error('request failed', {
      method: req.method,
      path: req.url.split('?')[0],
      error: err.message,
      stack: err.stack,
    });
    return reply.code(500).send({ error: 'Internal error; see the agent log.' });
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    const methods = methodsOf(path);
    if (!methods) return reply.code(404).send({ error: `Unknown path ${path}`, input: 'path' });
    const allow = [...methods, 'OPTIONS'].join(', ');
    reply.header('allow', allow);
    if (req.method === 'OPTIONS') return reply.code(200).send();
    return reply
      .code(405)
      .send({ error: `Method ${req.method} is not supported on ${path}; use ${allow}`, input: 'method' });
  });

  for (const routes of [
    statusRoutes,
    nodeRoutes,
    configStateRoutes,
    userInputRoutes,
    policyRoutes,
    eventLogRoutes,
    attributeRoutes,
    serviceRoutes,
    agreementRoutes,
    trustRoutes,
    nodeManagementRoutes,
  ]) {
    await app.register(routes, { ctx });
  }
  return app;
}
