import { HttpError } from '#lib/http/errors';
import { type DataMethod, signLocalUrl } from './local-url.ts';
import { presignS3 } from './s3-presign.ts';

/**
 * Where object data lives (docs/nmp.md#the-object-store): the local store under `npm start` and
 * the tests (`EXCHANGE_OBJECTS_URL` and `EXCHANGE_OBJECTS_SECRET`, which win), else S3 on AWS
 * (`EXCHANGE_OBJECTS_BUCKET`, set by serverless.yml). Both
 * are reached the same way: a URL signed for one method on one key, valid a few minutes, so data
 * never passes through a function (except small bodies the function forwards itself).
 */
export interface DataStore {
  url(method: DataMethod, key: string, expiresSeconds?: number): string;
}

/** URLs handed to clients live this long; an agent downloading 100 MB starts well within it. */
export const URL_SECONDS = 900;

export function dataStore(
  env: NodeJS.ProcessEnv = process.env,
  now: () => Date = () => new Date(),
): DataStore {
  const base = env.EXCHANGE_OBJECTS_URL;
  const secret = env.EXCHANGE_OBJECTS_SECRET;
  if (base && secret)
    return {
      url: (method, key, expiresSeconds = URL_SECONDS) =>
        signLocalUrl(base, secret, method, key, Math.floor(now().getTime() / 1000) + expiresSeconds),
    };
  const bucket = env.EXCHANGE_OBJECTS_BUCKET;
  if (bucket)
    return {
      url: (method, key, expiresSeconds = URL_SECONDS) =>
        presignS3({
          bucket,
          region: env.AWS_REGION ?? 'us-east-1',
          key,
          method,
          expiresSeconds,
          now: now(),
          credentials: {
            accessKeyId: env.AWS_ACCESS_KEY_ID ?? '',
            secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? '',
            ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
          },
        }),
    };
  return {
    url: () => {
      throw new HttpError(503, 'internal_error', 'the object store is not configured on this Exchange');
    },
  };
}

/** Where an object's data is kept: one key per object, its parts percent-encoded. */
export const dataKey = (org: string, type: string, id: string): string =>
  ['objects', org, type, id].map(encodeURIComponent).join('/');
