import { describe, expect, it } from 'vitest';
import { FALLBACK, FAMILIES, functions } from '#functions/families';
import { openApiDocument } from '#functions/openapi/shared/document';
import { type LambdaHandler, loadHandler } from '#lib/http/dispatch';
import type { RouteDoc } from '#lib/openapi/route';
import { functionName } from '#lib/openapi/serverless';

/**
 * The route lists are the one source: every route is documented, reaches its own family's
 * Lambda through API Gateway's choice of mount, and names a handler module built from that very
 * route entry.
 */
const routes = FAMILIES.flatMap((family) => family.routes.map((route) => ({ family, route })));

/** API Gateway's choice among ANY routes: an exact template first (literals before parameters), else the longest `{proxy+}` prefix. */
function gatewayChoice(path: string, mounts: { fn: string; mount: string }[]): string | undefined {
  const segments = path.split('/').slice(1);
  const literalFirst = (template: string[]) => template.map((s) => (s.startsWith('{') ? 'P' : 'L')).join('');
  const fits = (template: string[]) =>
    template.every((t, i) => (t.startsWith('{') ? segments[i] !== '' : t === segments[i]));
  const exact = mounts
    .map((m) => ({ ...m, template: m.mount.split('/').slice(1) }))
    .filter((m) => !m.mount.endsWith('+}') && m.template.length === segments.length && fits(m.template))
    .sort((a, b) => literalFirst(a.template).localeCompare(literalFirst(b.template)));
  if (exact[0]) return exact[0].fn;
  const greedy = mounts
    .filter((m) => m.mount.endsWith('{proxy+}'))
    .map((m) => ({ ...m, prefix: m.mount.split('/').slice(1, -1) }))
    .filter((m) => m.prefix.length < segments.length && fits(m.prefix))
    .sort(
      (a, b) =>
        b.prefix.length - a.prefix.length || literalFirst(a.prefix).localeCompare(literalFirst(b.prefix)),
    );
  return greedy[0]?.fn;
}

const allMounts = Object.entries(functions()).flatMap(([fn, { events }]) =>
  events.map(({ httpApi }) => ({ fn, mount: httpApi.path })),
);
const example = (path: string) => path.replace(/\{[^}]+\}/g, 'x1');

describe('the route lists', () => {
  it('give every operation a unique operationId, and every method + path once', () => {
    const ids = routes.map(({ route }) => route.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const keys = routes.map(({ route }) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('are exactly what the OpenAPI document describes, under the same operationIds', () => {
    const { paths } = openApiDocument();
    const documented = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    const listed = routes.map(({ route }) => `${route.method} ${route.path} ${route.operationId}`);
    expect(documented.sort()).toEqual(listed.sort());
  });

  it('generate one function per family, reached through its mounts, and the catch-all last', () => {
    const generated = functions();
    expect(Object.keys(generated)).toEqual([...FAMILIES.map((f) => functionName(f.folder)), FALLBACK.name]);
    for (const family of FAMILIES) {
      expect(generated[functionName(family.folder)]).toEqual({
        handler: `functions/${family.folder}/lambda.handler`,
        events: family.mounts.map((path) => ({ httpApi: { method: '*', path } })),
      });
    }
    expect(generated[FALLBACK.name]?.events).toEqual([{ httpApi: { method: '*', path: '/{proxy+}' } }]);
  });

  it('send each route, through API Gateway, to the function of its own family and no other', () => {
    for (const { family, route } of routes) {
      expect(gatewayChoice(example(route.path), allMounts), `${route.method} ${route.path}`).toBe(
        functionName(family.folder),
      );
    }
    expect(gatewayChoice('/v1/nowhere/at/all', allMounts)).toBe(FALLBACK.name);
  });

  it("name each route's handler module, whose endpoint validates with that route's own schemas", async () => {
    for (const { route } of routes) {
      const handler = (await loadHandler(route)) as LambdaHandler & { route?: RouteDoc };
      const built = handler.route;
      expect(built, route.operationId).toBeDefined();
      // An alias, or a route answered exactly as another (POST as PUT), shares the other's handler.
      for (const part of ['path', 'query', 'body', 'rawBody'] as const)
        expect(built?.request?.[part], `${route.operationId} ${part}`).toBe(route.request?.[part]);
      expect(built?.anonymous, route.operationId).toBe(route.anonymous);
    }
  });
});
