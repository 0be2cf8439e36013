import { type Caller, IBM_ORG, ROOT_ORG, roleOf } from '#lib/auth/caller';
import { getUser, isRootUser } from '#tables/user/records';

/**
 * What an agbot is entitled to (the README's "Secrets" rule). An agbot serves its own org's nodes
 * (with its org's catalog and other orgs' public patterns); only multi-tenant agbots (org IBM),
 * made by root or a hub admin, serve other orgs' nodes. Secrets are
 * delivered by multi-tenant agbots and by agbots an admin of their org owns; owners' rights are
 * read now, so an agbot of a demoted or deleted owner delivers nothing.
 */
interface AgbotIdentity {
  org: string;
  id: string;
  owner: string;
}

const splitOwner = (owner: string): [string, string] => {
  const slash = owner.indexOf('/');
  return slash < 0 ? ['', owner] : [owner.slice(0, slash), owner.slice(slash + 1)];
};

/** Whether a caller may make a multi-tenant agbot or declare what one serves: root and hub admins. */
export const mayManageMultiTenant = (caller: Caller): boolean => {
  const role = roleOf(caller);
  return role === 'SuperUser' || role === 'HubAdmin';
};

/** Whether `owner` (`org/user`) is root or a hub admin, read now. */
async function ownerIsHubOperator(owner: string): Promise<boolean> {
  const [org, id] = splitOwner(owner);
  if (isRootUser(org, id)) return true;
  if (org !== ROOT_ORG) return false;
  return (await getUser(org, id))?.hubAdmin === true;
}

/** Whether `owner` is root or an admin of `org`, read now. */
async function ownerAdministers(owner: string, org: string): Promise<boolean> {
  const [ownerOrg, id] = splitOwner(owner);
  if (isRootUser(ownerOrg, id)) return true;
  if (ownerOrg !== org) return false;
  return (await getUser(ownerOrg, id))?.admin === true;
}

/** A pattern or deployment policy an agbot serves, to the nodes of `nodeOrg`. */
export interface Served {
  kind: 'pattern' | 'deployment policy';
  org: string;
  nodeOrg: string;
  /** Whether the pattern is public; undefined while not known (`*`, or a pattern still to come). */
  public?: boolean;
}

/**
 * Whether the agbot may serve `served`. An agbot of an org serves its org's nodes only: its own
 * org's patterns and policies, and other orgs' public patterns (readable by every org, as
 * upstream's agbots serve IBM's). Only multi-tenant agbots (org IBM), made by root or a hub
 * admin, serve other orgs' nodes or private catalog. An unknown `public` passes here; search and
 * delivery check it again on the record.
 */
export async function mayServe(agbot: AgbotIdentity, served: Served): Promise<boolean> {
  if (agbot.org === IBM_ORG) return ownerIsHubOperator(agbot.owner);
  if (served.nodeOrg !== agbot.org) return false;
  if (served.org === agbot.org) return true;
  return served.kind === 'pattern' && served.public !== false;
}

/** Whether the agbot may read secret values of `org` at all (what it may read is then per binding). */
export async function mayDeliverSecrets(agbot: AgbotIdentity, org: string): Promise<boolean> {
  if (agbot.org === IBM_ORG) return ownerIsHubOperator(agbot.owner);
  return agbot.org === org && ownerAdministers(agbot.owner, org);
}
