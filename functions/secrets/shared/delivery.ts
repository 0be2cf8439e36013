import { mayDeliverSecrets, mayServe } from '#functions/agbots/shared/entitlement';
import { ownerAuthor } from '#functions/catalog/shared/secret-bindings';
import type { Caller } from '#lib/auth/caller';
import { accessDenied, badInput } from '#lib/http/errors';
import { bindingRefusal, boundEntries, deliversEntry } from '#lib/secrets/binding-rule';
import { getAgbotPattern } from '#tables/agbot/pattern-records';
import { getAgbotPolicy } from '#tables/agbot/policy-records';
import { getDeploymentPolicy } from '#tables/deployment-policy/records';
import { getPattern } from '#tables/pattern/records';
import type { DeliveryQuery } from './schemas.ts';

type AgbotCaller = Extract<Caller, { kind: 'agbot' }>;

const refused = (caller: Caller, org: string, name: string, why: string) =>
  accessDenied(
    `Access denied: '${caller.fullId}' cannot read secret '${name}' in organization '${org}': ${why}`,
  );

/**
 * The policy or pattern the query names (`<name>` of the secret's org `org`, or `<org>/<name>`),
 * and the agbot's declarations of serving it (by name or `*`) to nodes of `org`: the secret's org
 * is the node's org, as upstream's agbot reads every bound secret in the node's org.
 */
async function servedSource(caller: AgbotCaller, org: string, query: DeliveryQuery) {
  if ((query.policy === undefined) === (query.pattern === undefined))
    throw badInput(
      "invalid input: an agbot reads a secret for exactly one query parameter 'policy' or 'pattern' (the deployment policy or pattern that binds it)",
    );
  const isPolicy = query.policy !== undefined;
  const named = (query.policy ?? query.pattern) as string;
  const slash = named.indexOf('/');
  const sourceOrg = slash < 0 ? org : named.slice(0, slash);
  const name = named.slice(slash + 1);
  const served = isPolicy ? getAgbotPolicy : getAgbotPattern;
  const [byName, all, record] = await Promise.all([
    served(caller.org, caller.id, `${sourceOrg}_${name}`),
    served(caller.org, caller.id, `${sourceOrg}_*`),
    isPolicy ? getDeploymentPolicy(sourceOrg, name) : getPattern(sourceOrg, name),
  ]);
  const toThisOrg = [byName, all].filter((d) => d !== undefined && (d.nodeOrgid || sourceOrg) === org);
  return {
    kind: isPolicy ? ('deployment policy' as const) : ('pattern' as const),
    org: sourceOrg,
    name,
    declarations: toThisOrg,
    record,
  };
}

/**
 * Throws 403 unless the agbot may receive secret `name` of `org` for the policy or pattern the
 * query names (README "Secrets"): the agbot may deliver this org's secrets, serves that policy
 * or pattern to this org's nodes, and the policy or pattern binds the name with an owner entitled
 * to bind it in this org (so another org's pattern delivers this org's org-wide secrets only).
 */
export async function authorizeDelivery(
  caller: AgbotCaller,
  org: string,
  name: string,
  query: DeliveryQuery,
): Promise<void> {
  const agbot = { org: caller.org, id: caller.id, owner: caller.owner };
  if (!(await mayDeliverSecrets(agbot, org)))
    throw refused(
      caller,
      org,
      name,
      'only multi-tenant agbots and agbots owned by an admin of the org deliver secrets',
    );
  const source = await servedSource(caller, org, query);
  const what = `${source.kind} '${source.org}/${source.name}'`;
  const isPublic = source.record !== undefined && 'public' in source.record && source.record.public === true;
  const served = { kind: source.kind, org: source.org, nodeOrg: org, public: isPublic };
  if (source.declarations.length === 0 || !(await mayServe(agbot, served)))
    throw refused(caller, org, name, `the agbot does not serve ${what} to nodes of org '${org}'`);
  if (!source.record) throw refused(caller, org, name, `${what} does not exist`);
  const bindings = source.record.secretBinding as Parameters<typeof boundEntries>[0];
  if (!deliversEntry(name, boundEntries(bindings)))
    throw refused(caller, org, name, `${what} does not bind it`);
  const reason = bindingRefusal(await ownerAuthor(source.record.owner), org, name);
  if (reason) throw refused(caller, org, name, `the owner of ${what} may not bind it: ${reason}`);
}
