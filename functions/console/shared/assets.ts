import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Response } from '#lib/http/responses';

/**
 * The console's built files (`npm run build:console`, scripts/build-console.ts): `index.html`
 * and `assets/<name>-<hash>.<ext>`, read once per instance from `console/dist` under the working
 * directory (serverless.yml packages it beside the function; `EXCHANGE_CONSOLE_DIR` elsewhere).
 */
export interface ConsoleFiles {
  page: string;
  assets: Map<string, Buffer>;
}

/**
 * No inline script or style, no eval, nothing from another origin; Trusted Types, so no sink takes
 * a string (docs/console.md#security).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  'trusted-types',
].join('; ');

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Strict-Transport-Security': 'max-age=63072000',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

export const consoleDir = (): string =>
  resolve(process.env.EXCHANGE_CONSOLE_DIR || resolve(process.cwd(), 'console/dist'));

let cached: ConsoleFiles | undefined;

/** The built console, or undefined when it was not built (the routes answer 404 saying so). */
export function consoleFiles(dir = consoleDir()): ConsoleFiles | undefined {
  if (cached) return cached;
  try {
    const page = readFileSync(join(dir, 'index.html'), 'utf8');
    const assets = new Map<string, Buffer>();
    for (const name of readdirSync(join(dir, 'assets')))
      assets.set(name, readFileSync(join(dir, 'assets', name)));
    cached = { page, assets };
    return cached;
  } catch {
    return undefined;
  }
}

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

/** The page: revalidated on every load (its ETag answers 304), so a deploy's new asset names show at once. */
export function pageResponse(files: ConsoleFiles, ifNoneMatch: string | undefined): Response {
  const etag = `"${createHash('sha256').update(files.page).digest('base64url')}"`;
  const headers = {
    ...SECURITY_HEADERS,
    'Cache-Control': 'no-cache',
    ETag: etag,
    'Content-Type': 'text/html; charset=utf-8',
  };
  if (ifNoneMatch?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag))
    return { statusCode: 304, headers };
  return { statusCode: 200, headers, body: files.page };
}

/** An asset: its name carries its content's hash, so it is cached for a year and never revalidated. */
export function assetResponse(name: string, body: Buffer): Response {
  // Text only (the build writes scripts and styles): a Lambda answer's body is a string.
  const type = TYPES[name.split('.').pop() ?? ''] ?? 'text/plain; charset=utf-8';
  return {
    statusCode: 200,
    headers: {
      ...SECURITY_HEADERS,
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Content-Type': type,
    },
    body: body.toString('utf8'),
  };
}
