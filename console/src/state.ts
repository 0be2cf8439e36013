import { useEffect, useState } from 'preact/hooks';
import type { WhoAmI } from './api.ts';

/** The hash route: `#/nodes?state=offline` → `{ page: 'nodes', rest: [], params }`. */
export interface Route {
  page: string;
  rest: string[];
  params: URLSearchParams;
}

export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const [page = 'fleet', ...rest] = path.split('/').map(decodeURIComponent);
  return { page: page || 'fleet', rest, params: new URLSearchParams(query) };
}

/** A link inside the console: page, path segments (encoded) and query. */
export function href(
  page: string,
  rest: string[] = [],
  params: Record<string, string | undefined> = {},
): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
  const path = [page, ...rest.map(encodeURIComponent)].join('/');
  const text = query.toString();
  return `#/${path}${text ? `?${text}` : ''}`;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const changed = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}

export const REFRESH_MS = 30_000;

/**
 * A counter that moves every 30 s while the tab is visible, and at once when it becomes visible
 * again: pages load their data again when it moves. Hidden tabs ask nothing.
 */
export function useRefresh(): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => {
      timer ??= setInterval(() => setTick((n) => n + 1), REFRESH_MS);
    };
    const stop = () => {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    };
    const visibility = () => {
      if (document.hidden) stop();
      else {
        setTick((n) => n + 1);
        start();
      }
    };
    if (!document.hidden) start();
    document.addEventListener('visibilitychange', visibility);
    return () => {
      stop();
      document.removeEventListener('visibilitychange', visibility);
    };
  }, []);
  return tick;
}

/** Loads `load()` whenever `deps` change; `reload` runs it again (after an action). */
export function useData<T>(
  load: () => Promise<T>,
  deps: unknown[],
): { data: T | undefined; error: string | undefined; loading: boolean; reload: () => void } {
  const [state, setState] = useState<{ data: T | undefined; error: string | undefined; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [again, setAgain] = useState(0);
  useEffect(() => {
    let current = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => current && setState({ data, error: undefined, loading: false }),
      (error: unknown) =>
        current &&
        setState((s) => ({
          ...s,
          error: error instanceof Error ? error.message : String(error),
          loading: false,
        })),
    );
    return () => {
      current = false;
    };
  }, [...deps, again]);
  return { ...state, reload: () => setAgain((n) => n + 1) };
}

export interface PageProps {
  me: WhoAmI;
  org: string;
  route: Route;
  tick: number;
}

/** "3 min ago" for an ISO time, relative to `now`. */
export function ago(iso: string | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const seconds = Math.max(0, Math.round((now - Date.parse(iso.replace(/\[.*\]$/, ''))) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86_400)} d ago`;
}
