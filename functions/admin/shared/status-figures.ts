import { type Caller, IBM_ORG, isMultiTenantAgbot, ROOT_ORG, roleOf } from '#lib/auth/caller';
import { notFound } from '#lib/http/errors';
import { SCHEMA_VERSION } from '#lib/version';
import { countsOfNode, countsOfOrgs, sumCounts } from '#tables/admin/status-counts';
import { type Counts, getUserCounts, listOrgCounts, zeroCounts } from '#tables/org/stats';

export const OPERATING_NORMALLY = 'Exchange server operating normally';

/** What a caller may see of the server (`org` undefined) or of one org, by upstream's per-role rules. */
export async function statusFigures(caller: Caller, org?: string) {
  const role = roleOf(caller);
  const everything = role === 'SuperUser' || role === 'HubAdmin' || isMultiTenantAgbot(caller);
  const orgs = org
    ? await countsOfOrgs([org])
    : everything
      ? await listOrgCounts()
      : await countsOfOrgs([caller.org, IBM_ORG]);
  if (org && !orgs.has(org)) throw notFound(`org '${org}' not found`);
  const home = org ?? caller.org;
  const inHome = home === caller.org;
  const agbots = sumCounts(orgs.values());
  const nodes = await nodeFigures(caller, orgs, home, inHome);
  return {
    schemaVersion: role === 'SuperUser' || role === 'HubAdmin' ? SCHEMA_VERSION : -1,
    numberOfAgbotAgreements: agbots.agbotAgreements,
    numberOfAgbotMsgs: agbots.agbotMsgs,
    numberOfAgbots: agbots.agbots,
    numberOfNodeAgreements: nodes?.nodeAgreements ?? -1,
    numberOfNodeMsgs: nodes?.nodeMsgs ?? -1,
    numberOfNodes: nodes?.nodes ?? -1,
    numberOfOrganizations: orgs.size,
    // A hub admin sees no node figures at all, so these two are left out rather than -1.
    ...(nodes && {
      numberOfRegisteredNodes: nodes.registeredNodes,
      numberOfUnregisteredNodes: nodes.nodes - nodes.registeredNodes,
    }),
    numberOfUsers: userFigure(caller, orgs, home, inHome),
  };
}

async function nodeFigures(caller: Caller, orgs: Map<string, Counts>, home: string, inHome: boolean) {
  const role = roleOf(caller);
  if (role === 'HubAdmin') return undefined;
  if (role === 'SuperUser' || isMultiTenantAgbot(caller)) return sumCounts(orgs.values());
  if (role === 'AdminUser' || role === 'Agbot') return orgs.get(home) ?? zeroCounts();
  if (!inHome) return zeroCounts(); // users and nodes only ever see nodes of their own org
  if (caller.kind === 'node') return countsOfNode(caller.org, caller.id);
  return getUserCounts(caller.org, caller.id);
}

function userFigure(caller: Caller, orgs: Map<string, Counts>, home: string, inHome: boolean): number {
  const role = roleOf(caller);
  if (caller.kind === 'node' || caller.kind === 'agbot') return -1;
  if (role === 'SuperUser') return sumCounts(orgs.values()).users;
  // Everyone else is blind to the users of org root.
  if (role === 'HubAdmin') {
    return sumCounts([...orgs].filter(([id]) => id !== ROOT_ORG).map(([, counts]) => counts)).adminUsers;
  }
  if (home === ROOT_ORG) return 0;
  if (role === 'AdminUser') return orgs.get(home)?.users ?? 0;
  return inHome && caller.id !== 'root' ? 1 : 0;
}
