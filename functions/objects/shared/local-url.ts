import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The local object store's signed URLs (docs/nmp.md#the-object-store): what a presigned S3 URL is
 * on AWS, for the store `npm start` runs on local disk (scripts/local/object-store.ts). A URL names
 * one object key and one method until `expires` (epoch seconds), signed with HMAC-SHA256 under the
 * store's secret, so the Exchange hands out URLs and the store checks them without sharing state.
 */
export type DataMethod = 'GET' | 'PUT' | 'HEAD' | 'DELETE';

const signature = (secret: string, method: DataMethod, key: string, expires: number) =>
  createHmac('sha256', Buffer.from(secret, 'hex')).update(`${method}\n${key}\n${expires}`).digest('hex');

export function signLocalUrl(
  base: string,
  secret: string,
  method: DataMethod,
  key: string,
  expires: number,
): string {
  const url = new URL(`${base.replace(/\/+$/, '')}/objects/${encodeURIComponent(key)}`);
  url.searchParams.set('method', method);
  url.searchParams.set('expires', String(expires));
  url.searchParams.set('signature', signature(secret, method, key, expires));
  return url.toString();
}

/** The object key a request may use with its method, or undefined when the URL is forged, altered or expired. */
export function verifyLocalUrl(
  secret: string,
  method: string,
  pathAndQuery: string,
  nowSeconds: number,
): string | undefined {
  const url = new URL(pathAndQuery, 'http://store.invalid');
  const match = /^\/objects\/([^/]+)$/.exec(url.pathname);
  const signed = url.searchParams.get('method');
  const expires = Number(url.searchParams.get('expires'));
  const given = url.searchParams.get('signature') ?? '';
  if (!match?.[1] || signed !== method || !Number.isInteger(expires) || expires < nowSeconds)
    return undefined;
  const key = decodeURIComponent(match[1]);
  const wanted = Buffer.from(signature(secret, method as DataMethod, key, expires), 'hex');
  const got = Buffer.from(given, 'hex');
  return got.length === wanted.length && timingSafeEqual(got, wanted) ? key : undefined;
}
