import type { RouteDoc } from './route.ts';

/**
 * Routes that answer under a second path (upstream's aliases, such as an agbot's `/patterns` for
 * `/deployment/patterns`): the same handlers and schemas, each with its own operationId
 * (`<operationId>Alias`), at the path given in full by operationId. The family whose mount
 * receives the alias paths lists them.
 */
export function aliasRoutes<R extends RouteDoc>(
  routes: readonly R[],
  paths: Partial<Record<R['operationId'], string>>,
): R[] {
  return Object.entries(paths).map(([operationId, path]) => {
    const route = routes.find((r) => r.operationId === operationId);
    if (!route) throw new Error(`no route ${operationId} to alias`);
    return {
      ...route,
      path: path as string,
      operationId: `${route.operationId}Alias`,
      description: `Same as \`${route.method} ${route.path}\`. ${route.description ?? ''}`.trim(),
    };
  });
}

/** A family's routes followed by aliases of some of them (at the paths given, by operationId). */
export function withAliases<const R extends readonly RouteDoc[]>(
  routes: R,
  paths: Partial<Record<R[number]['operationId'], string>>,
): readonly [...R, ...R[number][]] {
  return [...routes, ...aliasRoutes(routes, paths)];
}
