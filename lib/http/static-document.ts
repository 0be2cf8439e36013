import { createHash } from 'node:crypto';
import { commonHeaders, type Response } from './responses.ts';

/**
 * A public document that changes only with a deploy (the device installer): the same bytes for
 * everyone, so caches may keep it a few minutes and revalidate it by its strong ETag (a hash of
 * the bytes). `If-None-Match` naming that tag gets a 304 without the body.
 */
export function staticDocument(body: string, contentType: string, maxAgeSeconds = 300) {
  const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
  const headers = {
    ...commonHeaders,
    'Cache-Control': `public, max-age=${maxAgeSeconds}`,
    ETag: etag,
    'Content-Type': contentType,
  };
  return (ifNoneMatch: string | undefined): Response =>
    matches(ifNoneMatch, etag) ? { statusCode: 304, headers } : { statusCode: 200, headers, body };
}

/** RFC 9110 §13.1.2: `*`, or a list of tags compared weakly (a `W/` prefix does not matter). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}
