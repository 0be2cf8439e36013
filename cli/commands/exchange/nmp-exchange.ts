import { type NodePolicyDoc, nmpApplies } from '#lib/nmp/applies';
import type { Ctx } from '../../context.ts';
import { EXIT, fatal } from '../../errors.ts';
import { type ExchangeClient, enc, jsonBody, splitOrg } from '../../exchange-client.ts';
import { mmsClient } from '../nm-session.ts';

type Json = Record<string, unknown>;

export const nmpPath = (org: string, name: string) => {
  const t = splitOrg(org, name);
  return { ...t, path: `orgs/${enc(t.org)}/managementpolicies${t.id ? `/${enc(t.id)}` : ''}` };
};

/** GET the org's NMPs (or one): `undefined` on 404. */
export async function getNmps(
  client: ExchangeClient,
  path: string,
): Promise<Record<string, Json> | undefined> {
  const result = await client.expect('GET', path, [200, 404]);
  if (result.status === 404) return undefined;
  return (
    jsonBody<{ managementPolicy?: Record<string, Json> }>(result, client.url(path)).managementPolicy ?? {}
  );
}

/** Upstream's batch size for per-node calls (`hzn exchange nmp status`, `--nodes`, `--applies-to`). */
export const NODE_BATCH = 50;

/** Runs `task` over `items` 50 at a time, each batch concurrently, results in `items`' order. */
export async function inBatches<T, R>(items: T[], task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += NODE_BATCH)
    results.push(...(await Promise.all(items.slice(start, start + NODE_BATCH).map(task))));
  return results;
}

/** The org's nodes by `org/id` ({} on 404). */
export async function orgNodes(
  client: ExchangeClient,
  org: string,
  node = '',
): Promise<Record<string, Json>> {
  const path = `orgs/${enc(org)}/nodes${node ? `/${enc(node)}` : ''}`;
  const result = await client.expect('GET', path, [200, 404]);
  if (result.status === 404) return {};
  return jsonBody<{ nodes?: Record<string, Json> }>(result, client.url(path)).nodes ?? {};
}

/**
 * The registered nodes (with a public key) of `org` that `policy` applies to, by upstream's rule
 * (lib/nmp/applies.ts), each node's policy read from the Exchange; sorted (upstream: map order).
 */
export async function compatibleNodes(client: ExchangeClient, org: string, policy: Json): Promise<string[]> {
  const nodes = Object.entries(await orgNodes(client, org)).filter(([, n]) => n.publicKey);
  const matches = await inBatches(nodes, async ([key, node]) => {
    const id = splitOrg(org, key).id;
    const path = `orgs/${enc(org)}/nodes/${enc(id)}/policy`;
    const answer = await client.expect('GET', path, [200, 404]);
    const doc = answer.status === 200 ? jsonBody<NodePolicyDoc>(answer, client.url(path)) : undefined;
    return nmpApplies(policy, String(node.pattern ?? ''), doc) ? key : undefined;
  });
  return matches.filter((key): key is string => key !== undefined).sort();
}

/**
 * The manifest an agentUpgradePolicy names must be in the model management service (the object
 * store) of its org, as upstream checks: `GET {HZN_FSS_CSSURL}/api/v1/objects/{org}?filters=true
 * &objectType=agent_upgrade_manifests&objectID={id}`, 404 = missing.
 */
export async function checkManifestExists(ctx: Ctx, client: ExchangeClient, org: string, manifest: string) {
  const { org: manifestOrg, id } = splitOrg(org, manifest);
  const mms = await mmsClient(ctx, client.creds);
  const path = `api/v1/objects/${enc(manifestOrg)}?filters=true&objectType=agent_upgrade_manifests&objectID=${enc(id)}`;
  const result = await mms.expect('GET', path, [200, 404]);
  if (result.status === 404)
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      `An AgentAutoUpgradePolicy was defined with manifest '${manifest}' which does not exist in org ${manifestOrg}.`,
    );
}
