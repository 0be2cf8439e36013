/**
 * A service's partition (`SERVICE#<org>/<id>`, the id being upstream's `<url without scheme,
 * specials replaced>_<version>_<arch>`): the service and its children (policy, keys, dockauths),
 * so deleting the service finds them.
 */
export const serviceKeys = {
  record: (org: string, serviceId: string) => ({ pk: `SERVICE#${org}/${serviceId}`, sk: 'SERVICE' }),
  policy: (org: string, serviceId: string) => ({ pk: `SERVICE#${org}/${serviceId}`, sk: 'POLICY' }),
  key: (org: string, serviceId: string, keyId: string) => ({
    pk: `SERVICE#${org}/${serviceId}`,
    sk: `KEY#${keyId}`,
  }),
  /** Dockauth ids are zero-padded so the sort key orders them numerically. */
  dockAuth: (org: string, serviceId: string, dockAuthId: number) => ({
    pk: `SERVICE#${org}/${serviceId}`,
    sk: `DOCKAUTH#${String(dockAuthId).padStart(12, '0')}`,
  }),
  /** The service's last dockauth id (UpdateItem ADD). */
  dockAuthSeq: (org: string, serviceId: string) => ({
    pk: `SERVICE#${org}/${serviceId}`,
    sk: 'DOCKAUTHSEQ',
  }),
  /** A public service's copy in the catalog partition: one Query lists every public service. */
  publicCopy: (org: string, serviceId: string) => ({ pk: 'PUBLICSERVICES', sk: `${org}/${serviceId}` }),
  publicPartition: 'PUBLICSERVICES',
  /** Sort-key prefixes of the service's children. */
  childPrefix: { key: 'KEY#', dockAuth: 'DOCKAUTH#' } as const,
  /** gsi1: an org's services. */
  orgIndex: (org: string) => `ORG#${org}#SERVICES`,
};
