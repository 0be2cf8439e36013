import type { Ctx } from '../context.ts';
import { EXIT, fatal } from '../errors.ts';
import { type ExchangeClient, enc, jsonBody, splitOrg } from '../exchange-client.ts';
import { readJsonFile, requireObject } from '../input-file.ts';

/**
 * What `hzn deploycheck` reads (anax cli/deploycheck): the node (record and policy) from the
 * Exchange or from files, the deployment policy or pattern by id or from a file, and each
 * service version's definition and service policy from the Exchange.
 */
export type Json = Record<string, unknown>;

export interface NodeInput {
  /** `org/id`, or "" for a node given only by files. */
  id: string;
  arch: string;
  nodeType: string;
  policy: Json | undefined;
  userInput: unknown[] | undefined;
}

/** What is deployed: a deployment policy or a pattern, with its id (`org/name`) when read from the Exchange. */
export interface DeploymentInput {
  kind: 'policy' | 'pattern';
  id: string;
  org: string;
  body: Json;
}

export interface ServiceDefinition {
  /** `org/<service id>` in the Exchange. */
  key: string;
  org: string;
  record: Json;
}

const firstOf = (answer: unknown, field: string): [string, Json] | undefined => {
  const map = (answer as Record<string, unknown> | undefined)?.[field];
  const entry = map && typeof map === 'object' ? Object.entries(map as Json)[0] : undefined;
  return entry ? [entry[0], entry[1] as Json] : undefined;
};

async function getJson(client: ExchangeClient, path: string): Promise<unknown | undefined> {
  const result = await client.expect('GET', path, [200, 404]);
  return result.status === 404 ? undefined : jsonBody(result, client.url(path));
}

/** A node from the Exchange: its record and its policy (upstream: both must exist). */
export async function exchangeNode(client: ExchangeClient, org: string, name: string): Promise<NodeInput> {
  const { org: nodeOrg, id } = splitOrg(org, name);
  const nodeId = `${nodeOrg}/${id}`;
  const path = `orgs/${enc(nodeOrg)}/nodes/${enc(id)}`;
  const node = firstOf(await getJson(client, path), 'nodes')?.[1];
  if (!node) throw fatal(EXIT.CLI_GENERAL_ERROR, `No node found for this node id ${nodeId}.`);
  const policy = (await getJson(client, `${path}/policy`)) as Json | undefined;
  return {
    id: nodeId,
    arch: String(node.arch ?? ''),
    nodeType: String(node.nodeType || 'device'),
    policy,
    userInput: Array.isArray(node.userInput) ? node.userInput : [],
  };
}

export async function deploymentById(
  client: ExchangeClient,
  org: string,
  kind: 'policy' | 'pattern',
  name: string,
): Promise<DeploymentInput> {
  const { org: owner, id } = splitOrg(org, name);
  const path =
    kind === 'policy'
      ? `orgs/${enc(owner)}/business/policies/${enc(id)}`
      : `orgs/${enc(owner)}/patterns/${enc(id)}`;
  const found = firstOf(await getJson(client, path), kind === 'policy' ? 'businessPolicy' : 'patterns');
  if (!found)
    throw fatal(
      EXIT.CLI_GENERAL_ERROR,
      kind === 'policy'
        ? `No deployment policy found for this id ${owner}/${id}.`
        : `No pattern found for this id ${owner}/${id}.`,
    );
  return { kind, id: found[0], org: owner, body: found[1] };
}

export async function deploymentFromFile(
  ctx: Ctx,
  kind: 'policy' | 'pattern',
  path: string,
  org: string,
): Promise<DeploymentInput> {
  return { kind, id: '', org, body: requireObject(await readJsonFile(ctx, path), path) };
}

/** The definitions of one service version: for one arch, or every arch published when `arch` is "". */
export async function serviceDefinitions(
  client: ExchangeClient,
  svc: { org: string; url: string; version: string; arch: string },
): Promise<ServiceDefinition[]> {
  const query = new URLSearchParams({ url: svc.url, version: svc.version });
  if (svc.arch) query.set('arch', svc.arch);
  const answer = (await getJson(client, `orgs/${enc(svc.org)}/services?${query}`)) as
    | { services?: Record<string, Json> }
    | undefined;
  return Object.entries(answer?.services ?? {})
    .filter(([, r]) => r.url === svc.url && r.version === svc.version && (!svc.arch || r.arch === svc.arch))
    .map(([key, record]) => ({ key, org: svc.org, record }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The service's own policy, or undefined when it has none. */
export async function servicePolicyOf(
  client: ExchangeClient,
  definition: ServiceDefinition,
): Promise<Json | undefined> {
  const id = definition.key.slice(definition.org.length + 1);
  return (await getJson(client, `orgs/${enc(definition.org)}/services/${enc(id)}/policy`)) as
    | Json
    | undefined;
}
