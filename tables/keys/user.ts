/** What a user's per-owner limits count. */
export type OwnedKind = 'SERVICE' | 'PATTERN' | 'BUSINESSPOL' | 'MGMTPOL';

/**
 * A user's partition (`USER#<org>/<username>`): the user, its counters, and beside it what it owns
 * in any org (links and per-owner counts), so deleting the user finds them with one Query.
 */
export const userKeys = {
  record: (org: string, username: string) => ({ pk: `USER#${org}/${username}`, sk: 'USER' }),
  stats: (org: string, username: string) => ({ pk: `USER#${org}/${username}`, sk: 'STATS' }),
  /**
   * An agbot owned from another org (hub admins, root): deleting the owner finds it here, since
   * the org's gsi1 only lists its own users' agbots.
   */
  ownedAgbot: (ownerOrg: string, username: string, org: string, id: string) => ({
    pk: `USER#${ownerOrg}/${username}`,
    sk: `OWNS#AGBOT#${org}/${id}`,
  }),
  /** The user cascade finds the services a user owns in any org. */
  ownedService: (ownerOrg: string, username: string, org: string, serviceId: string) => ({
    pk: `USER#${ownerOrg}/${username}`,
    sk: `OWNS#SERVICE#${org}/${serviceId}`,
  }),
  /**
   * How many services, patterns, deployment or management policies a user owns (all orgs): the per-owner
   * limit's condition reads it (tables/user/owner-counts.ts).
   */
  ownedCount: (kind: OwnedKind, ownerOrg: string, username: string) => ({
    pk: `USER#${ownerOrg}/${username}`,
    sk: `${kind}COUNT`,
  }),
  ownedAgbotPrefix: 'OWNS#AGBOT#',
  ownedServicePrefix: 'OWNS#SERVICE#',
  /** gsi1: an org's users. */
  orgIndex: (org: string) => `ORG#${org}#USERS`,
};

/** A record's `owner` is its user's `<org>/<username>` (or an agbot's `org/id`): → [org, rest]. */
export const splitOwner = (owner: string): [string, string] => {
  const slash = owner.indexOf('/');
  return [owner.slice(0, slash), owner.slice(slash + 1)];
};
