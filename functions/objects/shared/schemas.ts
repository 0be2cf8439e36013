import * as z from 'zod';
import { idSegment } from '#lib/ids';

/**
 * Request schemas of the object store (docs/nmp.md#the-object-store): the subset of upstream's
 * CSS object API (open-horizon/edge-sync-service) that `hzn nm manifest`, `hzn nm agentfiles` and
 * the agent use. Metadata is strict: the CSS fields those clients send, bounded.
 */
const SHORT = 4096;
const short = z.string().max(SHORT, `must be at most ${SHORT} characters`);

export const orgPath = z.object({ organization: idSegment });
export const typePath = orgPath.extend({ objectType: idSegment });
export const objectPath = typePath.extend({ objectID: idSegment });
export type ObjectPath = z.infer<typeof objectPath>;

export const listQuery = z.strictObject({
  filters: z.enum(['true', 'false']).optional(),
  objectType: short.optional(),
  objectID: short.optional(),
  deleted: z.enum(['true', 'false']).optional(),
  public: z.enum(['true', 'false']).optional(),
});

/** CSS metadata: what an object is, who may read it, how its data is signed. */
export const objectMeta = z.strictObject({
  objectID: idSegment,
  objectType: idSegment,
  destOrgID: idSegment.optional(),
  destID: short.nullish(),
  destType: short.nullish(),
  destinationPolicy: z.record(z.string(), z.json()).nullish(),
  expiration: short.nullish(),
  version: short.nullish(),
  description: short.nullish(),
  activationTime: short.nullish(),
  noData: z.boolean().nullish(),
  metaOnly: z.boolean().nullish(),
  inactive: z.boolean().nullish(),
  link: short.nullish(),
  public: z.boolean().nullish(),
  objectSize: z.number().int().nonnegative().nullish(),
  chunkSize: z.number().int().nonnegative().nullish(),
  expectedConsumers: z.number().int().nullish(),
  hashAlgorithm: z.enum(['SHA1', 'SHA256', '']).nullish(),
  publicKey: z.string().max(16_384).nullish(),
  signature: z.string().max(16_384).nullish(),
});
export type ObjectMeta = z.infer<typeof objectMeta>;

/** PUT metadata: `{"meta": {...}}` (inline `data` is refused: data goes to .../data). */
export const putObjectBody = z.strictObject({ meta: objectMeta });

/** The data PUT inline through the function: at most this many bytes (a Lambda takes at most 6 MB). */
export const MAX_INLINE_DATA = 4 * 1024 * 1024;
export const rawData = z.string().describe(`the object's data, at most ${MAX_INLINE_DATA} bytes`);
