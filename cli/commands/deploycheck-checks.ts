import { archMatches, isAnyArch } from '#lib/protocol/arch';
import { lenientList, serviceVersion, versionsByPriority } from '#lib/protocol/catalog-records';
import type { Check } from '#lib/protocol/constraint-eval';
import { checkDependencies, requiredServicesOf } from '#lib/protocol/dependency-check';
import { parseDeployment } from '#lib/protocol/deployment';
import type { PolicySide } from '#lib/protocol/policy-compatibility';
import type { UserInput } from '#lib/protocol/policy-document';
import { policyFit } from '#lib/protocol/policy-fit';
import type { SecretBinding } from '#lib/protocol/secret-binding';
import {
  type BoundSecretName,
  resolveSecretBindings,
  secretsNamedBy,
} from '#lib/protocol/secret-binding-check';
import type { ServiceRef } from '#lib/protocol/service-match';
import { checkUserInput, type DeclaredInput } from '#lib/protocol/user-input-check';
import type { ExchangeClient } from '../exchange-client.ts';
import type { DeploymentInput, Json, NodeInput, ServiceDefinition } from './deploycheck-inputs.ts';
import { missingSecret } from './deploycheck-secrets.ts';
import type { ServiceSource } from './deploycheck-services.ts';

/**
 * `hzn deploycheck`'s verdict for one node (anax compcheck.CompCheckOutput): per service version
 * and arch, "Compatible" or why not, by the rules the agbot applies (lib/protocol): the policies
 * both ways with host access (policy-fit), complete user input, resolvable secret bindings, the
 * dependencies resolved for the node's arch with their own input and bindings, and each bound
 * secret present in the secrets manager.
 */
export type CheckKind = 'policy' | 'userinput' | 'secretbinding';

export interface CompCheckOutput {
  compatible: boolean;
  reason: Record<string, string>;
  input?: Json;
}

const INCOMPATIBLE: Record<CheckKind, string> = {
  policy: 'Policy Incompatible',
  userinput: 'User Input Incompatible',
  secretbinding: 'Secret Binding Incompatible',
};
const COMPATIBLE = 'Compatible';

interface Target {
  org: string;
  url: string;
  arch: string;
  versions: string[];
}

const versionList = lenientList(serviceVersion);

/** The services a deployment policy or pattern names, each with its versions in priority order. */
function targetsOf(deployment: DeploymentInput): Target[] {
  const body = deployment.body;
  const entries =
    deployment.kind === 'policy'
      ? [body.service as Json | undefined].filter((s): s is Json => !!s)
      : ((body.services as Json[] | undefined) ?? []);
  return entries.map((s) => ({
    org: String((deployment.kind === 'policy' ? s.org : s.serviceOrgid) ?? ''),
    url: String((deployment.kind === 'policy' ? s.name : s.serviceUrl) ?? ''),
    arch: String((deployment.kind === 'policy' ? s.arch : s.serviceArch) ?? ''),
    versions: versionsByPriority({ serviceVersions: versionList.parse(s.serviceVersions ?? []) }),
  }));
}

/** Upstream's service key: `org/url_version_arch` (arch `*` when any). */
const keyOf = (s: { org: string; url: string; version: string; arch: string }) =>
  `${s.org}/${s.url}_${s.version}_${s.arch || '*'}`;

export interface CheckOptions {
  kinds: CheckKind[];
  checkAll: boolean;
  long: boolean;
  /** -a: the node's arch when no node record says it. */
  arch: string;
  /** --service: definitions come from files ("not found in the input"). */
  fromFiles: boolean;
}

/** Where the checks read: service definitions and policies, and the Exchange's secrets manager. */
export interface CheckSources {
  services: ServiceSource;
  client: ExchangeClient;
}

export async function checkNode(
  sources: CheckSources,
  node: NodeInput,
  deployment: DeploymentInput,
  options: CheckOptions,
): Promise<CompCheckOutput> {
  const kinds = deployment.kind === 'pattern' ? options.kinds.filter((k) => k !== 'policy') : options.kinds;
  const first = kinds[0] ?? 'policy';
  const nodeArch = node.arch || options.arch;
  const reason: Record<string, string> = {};
  const used: { definitions: Json[]; servicePolicies: Record<string, Json> } = {
    definitions: [],
    servicePolicies: {},
  };
  const finish = (compatible: boolean, reasons: Record<string, string>): CompCheckOutput => ({
    compatible,
    reason: reasons,
    ...(options.long ? { input: inputView(node, deployment, nodeArch, used) } : {}),
  });
  let compatible = false;
  for (const target of targetsOf(deployment)) {
    for (const version of target.versions) {
      if (nodeArch && !archMatches(target.arch, nodeArch)) {
        if (options.checkAll)
          reason[keyOf({ ...target, version })] = `${INCOMPATIBLE[first]}: Architecture does not match.`;
        continue;
      }
      const arch = isAnyArch(target.arch) ? nodeArch : target.arch;
      const definitions = await sources.services.definitions({ ...target, version, arch });
      if (definitions.length === 0) {
        reason[keyOf({ ...target, version, arch })] =
          `${INCOMPATIBLE[first]}: Service definition not found in the ${options.fromFiles ? 'input' : 'Exchange'}.`;
        continue;
      }
      for (const definition of definitions) {
        const service = { org: target.org, url: target.url, version, arch: String(definition.record.arch) };
        used.definitions.push(definition.record);
        const verdict = await checkOne(
          sources,
          kinds,
          { node, nodeArch },
          deployment,
          definition,
          service,
          used,
        );
        reason[keyOf(service)] = verdict;
        if (verdict !== COMPATIBLE) continue;
        compatible = true;
        if (!options.checkAll) return finish(true, { [keyOf(service)]: COMPATIBLE });
      }
    }
  }
  if (Object.keys(reason).length === 0) {
    const where = deployment.kind === 'policy' ? 'the deployment policy' : 'the pattern';
    reason.general = nodeArch
      ? `${INCOMPATIBLE[first]}: Service with 'arch' ${nodeArch} cannot be found in ${where}.`
      : `${INCOMPATIBLE[first]}: No services found in ${where}.`;
  }
  return finish(compatible, reason);
}

/** The checks of one service version, in upstream's order; the first that fails gives the reason. */
async function checkOne(
  sources: CheckSources,
  kinds: CheckKind[],
  target: { node: NodeInput; nodeArch: string },
  deployment: DeploymentInput,
  definition: ServiceDefinition,
  service: ServiceRef,
  used: { servicePolicies: Record<string, Json> },
): Promise<string> {
  const { node } = target;
  const text = String(definition.record.deployment ?? '');
  if (!text)
    return `${INCOMPATIBLE[kinds[0] ?? 'policy']}: Service does not have deployment configuration for node type 'device'.`;
  let parsed: ReturnType<typeof parseDeployment>;
  try {
    parsed = parseDeployment(text);
  } catch (error) {
    return `${INCOMPATIBLE[kinds[0] ?? 'policy']}: ${(error as Error).message}`;
  }
  const body = deployment.body;
  const bindings = body.secretBinding as SecretBinding[] | undefined;
  const inputs = {
    policy: (body.userInput as UserInput[] | undefined) ?? [],
    node: node.userInput as UserInput[],
  };
  let bound: BoundSecretName[] = [];
  for (const kind of kinds) {
    let check: Check;
    if (kind === 'policy') {
      const servicePolicy = await sources.services.policyOf(definition);
      if (servicePolicy) used.servicePolicies[definition.key] = servicePolicy;
      check = policyFit({
        nodePolicy: node.policy ?? {},
        deploymentPolicy: body as PolicySide,
        servicePolicy: servicePolicy as PolicySide | undefined,
        service,
        deployment: parsed,
      });
    } else if (kind === 'userinput') {
      check = checkUserInput(
        service,
        definition.record.userInput as DeclaredInput[] | undefined,
        inputs.policy,
        inputs.node,
      );
    } else {
      const resolved = resolveSecretBindings(service, secretsNamedBy(parsed), bindings);
      bound = resolved.bound ?? [];
      check = resolved;
    }
    if (!check.ok) return `${INCOMPATIBLE[kind]}: ${check.reason}`;
  }
  const dependencies = await checkDependencies(
    { org: service.org, url: service.url, requiredServices: requiredServicesOf(definition.record) },
    target.nodeArch,
    (org, url) => sources.services.versions(org, url),
    {
      ...(kinds.includes('userinput') ? { inputs } : {}),
      ...(kinds.includes('secretbinding') ? { bindings: bindings ?? [] } : {}),
    },
  );
  if (!dependencies.ok) {
    const kind = dependencies.failed === 'resolve' ? (kinds[0] ?? 'policy') : dependencies.failed;
    return `${INCOMPATIBLE[kind]}: ${dependencies.reason}`;
  }
  if (kinds.includes('secretbinding')) {
    const node = target.node.id ? target.node.id.split('/') : [deployment.org, ''];
    const missing = await missingSecret(sources.client, deployment.org, [...bound, ...dependencies.bound], {
      org: node[0] as string,
      id: node.slice(1).join('/'),
    });
    if (missing) return `${INCOMPATIBLE.secretbinding}: ${missing}`;
  }
  return COMPATIBLE;
}

/** `-l`: what the check used, under upstream's names (compcheck.CompCheckResource). */
function inputView(
  node: NodeInput,
  deployment: DeploymentInput,
  nodeArch: string,
  used: { definitions: Json[]; servicePolicies: Record<string, Json> },
): Json {
  const view: Json = {};
  if (node.id) view.node_id = node.id;
  if (nodeArch) view.node_arch = nodeArch;
  view.node_type = node.nodeType;
  if (node.policy) view.node_policy = node.policy;
  if (node.userInput?.length) view.node_user_input = node.userInput;
  if (deployment.kind === 'policy') {
    if (deployment.id) view.business_policy_id = deployment.id;
    view.business_policy = deployment.body;
  } else {
    if (deployment.id) view.pattern_id = deployment.id;
    view.pattern = deployment.body;
  }
  if (Object.keys(used.servicePolicies).length > 0) view.service_policy = used.servicePolicies;
  if (used.definitions.length > 0) view.service = used.definitions;
  return view;
}
