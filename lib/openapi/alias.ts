import type { RouteDoc } from './route.ts';

/**
 * Routes that answer under a second path prefix (upstream's aliases, such as an agbot's
 * `/patterns` for `/deployment/patterns`): the same handlers and schemas, each with its own
 * operationId (`<operationId>Alias`). The family whose mount receives the alias paths lists them.
 */
export function aliasRoutes<H extends string>(
  routes: RouteDoc<H>[],
  from: string,
  to: string,
): RouteDoc<H>[] {
  return routes.map((route) => ({
    ...route,
    path: route.path.replace(from, to),
    operationId: `${route.operationId}Alias`,
    description: `Same as \`${route.method} ${route.path}\`. ${route.description ?? ''}`.trim(),
  }));
}
