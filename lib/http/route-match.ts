/**
 * Picks the route of a family's list that a request names, the way API Gateway picks among
 * exact routes: same method, same number of segments, literal segments equal, a parameter takes
 * any non-empty segment; where several match, a literal beats a parameter at the first segment
 * they differ. Segments are percent-decoded one by one, so an encoded `/` stays inside its segment.
 */
interface RoutePattern<T> {
  method: string;
  /** API Gateway path template: `/v1/orgs/{organization}/nodes/{node}`. */
  path: string;
  value: T;
}

interface Compiled<T> {
  method: string;
  /** `null` where the template has a parameter. */
  literals: (string | null)[];
  names: (string | null)[];
  /** Sorts literal-first: `L` (literal) before `P` (parameter), segment by segment. */
  rank: string;
  value: T;
}

interface RouteMatch<T> {
  value: T;
  /** Decoded path parameters by name; undefined when the route has none (as API Gateway sends it). */
  pathParameters?: Record<string, string>;
}

/** The request path is not valid percent-encoding (API Gateway could not decode it either). */
export const MALFORMED_PATH = Symbol('malformed path');

const templateSegments = (path: string) => path.split('/').slice(1);

export function compileRoutes<T>(routes: RoutePattern<T>[]): Compiled<T>[] {
  return routes
    .map((route) => {
      const segments = templateSegments(route.path);
      const names = segments.map((s) => /^\{([^}+]+)\}$/.exec(s)?.[1] ?? null);
      if (segments.some((s) => s.includes('+}')))
        throw new Error(`${route.path}: no greedy parameter in a route`);
      return {
        method: route.method,
        literals: segments.map((s, i) => (names[i] ? null : s)),
        names,
        rank: names.map((n) => (n ? 'P' : 'L')).join(''),
        value: route.value,
      };
    })
    .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
}

function decodeSegments(rawPath: string, encoded: boolean): string[] | typeof MALFORMED_PATH {
  if (!encoded) return templateSegments(rawPath);
  try {
    return templateSegments(rawPath).map((segment) => decodeURIComponent(segment));
  } catch {
    return MALFORMED_PATH;
  }
}

/** HEAD is answered like GET (as serverless-offline and upstream do). */
const routeMethod = (method: string) => (method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase());

export function matchRoute<T>(
  routes: Compiled<T>[],
  method: string,
  rawPath: string,
  /** Whether rawPath is still percent-encoded (serverless-offline) or already decoded (API Gateway). */
  encoded = true,
): RouteMatch<T> | typeof MALFORMED_PATH | undefined {
  const segments = decodeSegments(rawPath, encoded);
  if (segments === MALFORMED_PATH) return MALFORMED_PATH;
  const wanted = routeMethod(method);
  const route = routes.find(
    (r) =>
      r.method === wanted &&
      r.literals.length === segments.length &&
      r.literals.every((literal, i) => (literal === null ? segments[i] !== '' : literal === segments[i])),
  );
  if (!route) return undefined;
  const entries = route.names.flatMap((name, i) => (name ? [[name, segments[i] as string] as const] : []));
  return { value: route.value, pathParameters: entries.length ? Object.fromEntries(entries) : undefined };
}
