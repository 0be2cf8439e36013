/**
 * Where a request names one secret: `/v1/orgs/{organization}/secrets/<name with slashes>`. The
 * list routes' own paths (GET `node/{node}`, `user/{user}`, `user/{user}/node/{node}`) are not
 * secrets. Undefined for anything else (the family's dispatcher handles it, malformed encoding
 * included).
 */
export function secretRequest(
  method: string,
  rawPath: string,
  encoded: boolean,
): { organization: string; secret: string } | undefined {
  let segments = rawPath.split('/').slice(1);
  if (encoded) {
    try {
      segments = segments.map((segment) => decodeURIComponent(segment));
    } catch {
      return undefined;
    }
  }
  const [v1, orgs, organization, secrets, ...rest] = segments;
  if (v1 !== 'v1' || orgs !== 'orgs' || !organization || secrets !== 'secrets' || rest.length === 0)
    return undefined;
  const isGet = method === 'GET' || method === 'HEAD';
  const filled = rest.every((segment) => segment !== '');
  const listPath =
    (rest.length === 2 && (rest[0] === 'node' || rest[0] === 'user')) ||
    (rest.length === 4 && rest[0] === 'user' && rest[2] === 'node');
  if (isGet && filled && listPath) return undefined;
  return { organization, secret: rest.join('/') };
}
