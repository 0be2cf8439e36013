import type { Caller } from '#lib/auth/caller';
import { listAgbotPatterns } from '#tables/agbot/pattern-records';
import { listAgbotPolicies } from '#tables/agbot/policy-records';

/**
 * The node orgs a search may return for the pattern or policy `org/name`. An agbot searches only
 * for what it serves (its served patterns or policies; `*` = every one of that org, as upstream's
 * agbots use it); everyone else searches the orgs asked. Upstream does not check; we do (issue 11,
 * docs/compatibility.md).
 */
export async function searchableOrgs(
  caller: Caller,
  kind: 'pattern' | 'policy',
  org: string,
  name: string,
  asked: string[],
): Promise<string[]> {
  if (caller.kind !== 'agbot') return asked;
  const served =
    kind === 'pattern'
      ? (await listAgbotPatterns(caller.org, caller.id)).map((r) => [r.patternOrgid, r.pattern, r.nodeOrgid])
      : (await listAgbotPolicies(caller.org, caller.id)).map((r) => [
          r.businessPolOrgid,
          r.businessPol,
          r.nodeOrgid,
        ]);
  const allowed = new Set(
    served.filter(([o, n]) => o === org && (n === name || n === '*')).map(([, , nodeOrg]) => nodeOrg),
  );
  return asked.filter((nodeOrg) => allowed.has(nodeOrg));
}
