/** A deployment pattern's partition (`PATTERN#<org>/<name>`): the pattern and its signing keys. */
export const patternKeys = {
  record: (org: string, name: string) => ({ pk: `PATTERN#${org}/${name}`, sk: 'PATTERN' }),
  /** A signing key shares the pattern's partition, so deleting the pattern finds it. */
  key: (org: string, name: string, keyId: string) => ({
    pk: `PATTERN#${org}/${name}`,
    sk: `KEY#${keyId}`,
  }),
  keyPrefix: 'KEY#',
  /** A public pattern's copy in the catalog partition: one Query lists every public pattern. */
  publicCopy: (org: string, name: string) => ({ pk: 'PUBLICPATTERNS', sk: `${org}/${name}` }),
  publicPartition: 'PUBLICPATTERNS',
  /** gsi1: an org's patterns. */
  orgIndex: (org: string) => `ORG#${org}#PATTERNS`,
};
