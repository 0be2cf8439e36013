import type { ObjectRecord } from '#tables/object/records';

/** An object's metadata as CSS answers it: what was written, with its org, type and id filled in. */
export const metaView = (r: ObjectRecord): Record<string, unknown> => ({
  ...r.meta,
  objectID: r.id,
  objectType: r.type,
  destinationOrgID: r.org,
  public: r.public,
  objectSize: r.dataSize ?? 0,
  deleted: false,
  lastUpdate: r.lastUpdated,
});
