/** An object of the object store (metadata; its data lives in S3 or the local store). */
export const objectKeys = {
  record: (org: string, type: string, id: string) => ({ pk: `OBJECT#${org}/${type}/${id}`, sk: 'OBJECT' }),
  /** gsi1: an org's objects, sorted by `<type>/<id>`. */
  orgIndex: (org: string) => `ORG#${org}#OBJECTS`,
  sortKey: (type: string, id: string) => `${type}/${id}`,
};
