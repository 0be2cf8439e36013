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
  /** `true`: the distinct types instead of the metadata (`hzn nm agentfiles versions`). */
  list_object_type: z.enum(['true', 'false']).optional(),
});

/**
 * CSS metadata (open-horizon/edge-sync-service `common.MetaData`): what an object is, who may read
 * it, how its data is signed. Go clients send every field, most empty; the fields CSS sets itself
 * (`originID`, `instanceID`, `lastUpdate`...) are accepted and ignored. Unknown fields are 400.
 */
const str = short.nullish();
const flag = z.boolean().nullish();
const count = z.number().int().nullish();
export const objectMeta = z.strictObject({
  objectID: idSegment,
  objectType: idSegment,
  destinationOrgID: str,
  destinationID: str,
  destinationType: str,
  destinationsList: z.array(short).max(1000).nullish(),
  destinationPolicy: z.record(z.string(), z.json()).nullish(),
  expiration: str,
  version: str,
  description: str,
  link: str,
  inactive: flag,
  activationTime: str,
  noData: flag,
  metaOnly: flag,
  destinationDataUri: str,
  sourceDataUri: str,
  consumers: count,
  autodelete: flag,
  originID: str,
  originType: str,
  deleted: flag,
  instanceID: count,
  dataID: count,
  objectSize: count,
  chunkSize: count,
  public: flag,
  hashAlgorithm: z.enum(['SHA1', 'SHA256', '']).nullish(),
  publicKey: z.string().max(16_384).nullish(),
  signature: z.string().max(16_384).nullish(),
  ownerID: str,
  lastUpdate: str,
});
export type ObjectMeta = z.infer<typeof objectMeta>;

/** Set by the store, never by a writer: dropped from what a PUT keeps. */
export const STORE_FIELDS = [
  'originID',
  'originType',
  'deleted',
  'instanceID',
  'dataID',
  'objectSize',
  'chunkSize',
  'ownerID',
  'lastUpdate',
] as const;

/** PUT metadata: `{"meta": {...}}`, `data` null or absent (data goes to .../data, as Go's hzn sends it: null). */
export const putObjectBody = z.strictObject({ meta: objectMeta, data: z.null().optional() });

/** The data PUT inline through the function: at most this many bytes (a Lambda takes at most 6 MB). */
export const MAX_INLINE_DATA = 4 * 1024 * 1024;
export const rawData = z.string().describe(`the object's data, at most ${MAX_INLINE_DATA} bytes`);
