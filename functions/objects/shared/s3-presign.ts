import { createHash, createHmac } from 'node:crypto';
import type { DataMethod } from './local-url.ts';

/**
 * A presigned S3 URL (AWS Signature Version 4, query string form; AWS's "Authenticating Requests:
 * Using Query Parameters"), signed with the function's own credentials from its environment, so
 * the data of an object moves between the client and S3 directly: a Lambda answers at most 6 MB.
 */
interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest();
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** RFC 3986 encoding, as SigV4 wants it (encodeURIComponent leaves `!'()*` alone). */
const rfc3986 = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function presignS3(options: {
  bucket: string;
  region: string;
  key: string;
  method: DataMethod;
  expiresSeconds: number;
  now: Date;
  credentials: Credentials;
  /** The bucket's host; the regional virtual-hosted one by default. */
  host?: string;
}): string {
  const { bucket, region, key, method, expiresSeconds, now, credentials } = options;
  const host = options.host ?? `${bucket}.s3.${region}.amazonaws.com`;
  const path = `/${key.split('/').map(rfc3986).join('/')}`;
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = stamp.slice(0, 8);
  const scope = `${day}/${region}/s3/aws4_request`;
  const query: [string, string][] = [
    ['X-Amz-Algorithm', 'AWS4-HMAC-SHA256'],
    ['X-Amz-Credential', `${credentials.accessKeyId}/${scope}`],
    ['X-Amz-Date', stamp],
    ['X-Amz-Expires', String(expiresSeconds)],
    ...(credentials.sessionToken
      ? ([['X-Amz-Security-Token', credentials.sessionToken]] as [string, string][])
      : []),
    ['X-Amz-SignedHeaders', 'host'],
  ];
  const canonicalQuery = query
    .map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`)
    .sort()
    .join('&');
  const canonicalRequest = [method, path, canonicalQuery, `host:${host}\n`, 'host', 'UNSIGNED-PAYLOAD'].join(
    '\n',
  );
  const toSign = ['AWS4-HMAC-SHA256', stamp, scope, sha256(canonicalRequest)].join('\n');
  const key4 = ['aws4_request'].reduce(
    (k, part) => hmac(k, part),
    hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), region), 's3'),
  );
  const signature = createHmac('sha256', key4).update(toSign).digest('hex');
  return `https://${host}${path}?${canonicalQuery}&X-Amz-Signature=${signature}`;
}
