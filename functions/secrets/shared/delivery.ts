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

/** The policy or pattern the query names, and the agbot's declarations of serving it (by name or `*`). */
async function servedSource(caller: AgbotCaller, org: string, query: DeliveryQuery) {
  if ((query.policy === undefined) === (query.pattern === undefined))
    throw badInput(
      "invalid input: an agbot reads a secret for exactly one query parameter 'policy' or 'pattern' (the deployment policy or pattern that binds it)",
    );
  const isPolicy = query.policy !== undefined;
  const name = (query.policy ?? query.pattern) as string;
  const served = isPolicy ? getAgbotPolicy : getAgbotPattern;
  const [byName, all, record] = await Promise.all([
    served(caller.org, caller.id, `${org}_${name}`),
    served(caller.org, caller.id, `${org}_*`),
    isPolicy ? getDeploymentPolicy(org, name) : getPattern(org, name),
  ]);
  return {
    kind: isPolicy ? 'deployment policy' : 'pattern',
    name,
    declarations: [byName, all].filter((d) => d !== undefined),
    record,
  };
}

/**
 * Throws 403 unless the agbot may receive secret `name` of `org` for the policy or pattern the
 * query names (README "Secrets"): the agbot may deliver this org's secrets, serves that policy
 * or pattern, and the policy or pattern binds the name with an owner entitled to bind it.
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
  const what = `${source.kind} '${org}/${source.name}'`;
  const serving = await Promise.all(source.declarations.map((d) => mayServe(agbot, org, d.nodeOrgid || org)));
  if (!serving.includes(true)) throw refused(caller, org, name, `the agbot does not serve ${what}`);
  if (!source.record) throw refused(caller, org, name, `${what} does not exist`);
  const bindings = source.record.secretBinding as Parameters<typeof boundEntries>[0];
  if (!deliversEntry(name, boundEntries(bindings)))
    throw refused(caller, org, name, `${what} does not bind it`);
  const reason = bindingRefusal(await ownerAuthor(source.record.owner), org, name);
  if (reason) throw refused(caller, org, name, `the owner of ${what} may not bind it: ${reason}`);
}
