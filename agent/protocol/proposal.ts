/**
 * A proposal on the node (docs/protocol.md#proposals-on-the-node): pre-checks whose failure gets no reply (duplicate,
 * unreadable T&C, pattern or type mismatch, arch, a deployment signature no trusted key
 * verifies), then the decision, answered either way (proposal-checks.ts): the node's current
 * policy both ways (not for a pattern proposal), the privilege the service needs, complete user
 * input, and a value for every bound secret. On acceptance the secrets are written to the
 * agreement's files and the agreement is recorded.
 */
import { archMatches } from '#lib/protocol/arch';
import { buildReply } from '#lib/protocol/build-message';
import type { Check } from '#lib/protocol/constraint-eval';
import { type Deployment, parseDeployment } from '#lib/protocol/deployment';
import { verifyDeployment } from '#lib/protocol/deployment-signature';
import type { Proposal } from '#lib/protocol/messages';
import { type ProposalContents, readProposal } from '#lib/protocol/parse-message';
import type { NodePolicyDocument } from '#lib/protocol/policy-compatibility';
import type { PolicyDocument } from '#lib/protocol/policy-document';
import { decodeSecretValue, maskSecretValues } from '#lib/protocol/secret-binding';
import { resolveSecretBindings, secretsNamedBy } from '#lib/protocol/secret-binding-check';
import { findFor, type ServiceRef } from '#lib/protocol/service-match';
import { newAgreement, saveAgreement } from '../agreements/store.ts';
import type { Credentials } from '../exchange/client.ts';
import { loadPolicy, loadUserInput } from '../node/local.ts';
import type { NodeRecord } from '../node/record.ts';
import { agentHostAccess } from '../workloads/host-guard.ts';
import type { SecretValue } from '../workloads/secret-files.ts';
import { type DeclaredInput, type NodeMessage, serviceRecord } from './exchange-calls.ts';
import { decideOnProposal, patternMatches } from './proposal-checks.ts';
import type { Protocol } from './protocol.ts';
import { activeAgreements, findAgreement, nowSeconds, recordSecrets } from './records.ts';
import { sendMessage } from './send.ts';
import { trustedKeys } from './trusted-keys.ts';

export async function handleProposal(
  p: Protocol,
  node: NodeRecord,
  creds: Credentials,
  message: NodeMessage,
  proposal: Proposal,
): Promise<void> {
  const { ctx } = p;
  const id = proposal.agreementId;
  const base = { agreement_id: id, consumer_id: proposal.consumerId, agreement_protocol: 'Basic' };
  const existing = findAgreement(ctx.store, id);
  if (existing) {
    ctx.events.add(
      'info',
      'ignore_proposal',
      `Ignoring proposal for agreement ${id}: already known.`,
      'agreement',
      base,
    );
    return;
  }
  let contents: ProposalContents;
  try {
    contents = readProposal(proposal);
  } catch (error) {
    const why = (error as Error).message;
    ctx.events.add('error', 'error_in_proposal', `Error in proposal ${id}: ${why}`, 'agreement', base);
    return;
  }
  const { terms, producerPolicy } = contents;
  const workload = terms.workloads?.[0] ?? {};
  const service: ServiceRef = {
    org: workload.organization ?? '',
    url: workload.workloadUrl ?? '',
    version: workload.version ?? '',
    arch: workload.arch || ctx.host.arch,
  };
  const source = { ...base, workload_to_run: service, dependent_services: [] };
  ctx.events.add(
    'info',
    'received_proposal',
    `Node received Proposal message using agreement ${id} for service ${service.org}/${service.url} from the agbot ${message.agbotId}.`,
    'agreement',
    source,
  );
  const refuse = (why: string) =>
    ctx.events.add(
      'error',
      'error_processing_proposal',
      `Error handling proposal for service ${service.org}/${service.url}. Error: ${why}`,
      'agreement',
      source,
    );

  const pre = preChecks(p, node, terms);
  if (!pre.ok) return void refuse(pre.reason);
  const { deployment } = pre;

  const record = await serviceRecord(ctx, creds, service);
  const declared = record?.userInput ?? [];
  const secrets = secretValues(terms, service, deployment);
  const decision = decide(p, terms, producerPolicy, service, deployment, declared, secrets);
  const keyOfAgbot = message.agbotPubKey;
  if (!decision.ok) {
    await sendMessage(
      p,
      creds,
      message.agbotId,
      keyOfAgbot,
      buildReply(id, false, `${node.organization}/${node.id}`),
    );
    refuse(`Respond to proposal with error: ${decision.reason}`);
    return;
  }
  const values = (secrets as { values: Record<string, SecretValue> }).values;
  const names = Object.keys(values);
  if (names.length > 0) p.secretFiles.write(id, values);
  await sendMessage(
    p,
    creds,
    message.agbotId,
    keyOfAgbot,
    buildReply(id, true, `${node.organization}/${node.id}`),
  );
  const now = nowSeconds(ctx.now);
  const masked: PolicyDocument = terms.secretDetails
    ? { ...terms, secretDetails: maskSecretValues(terms.secretDetails) }
    : terms;
  ctx.store.transaction(() => {
    saveAgreement(
      ctx.store,
      newAgreement(id, {
        name: terms.header.name,
        consumer_id: proposal.consumerId,
        counterparty_address: proposal.consumerId,
        agreement_creation_time: now,
        proposal: JSON.stringify({ ...proposal, tsandcs: JSON.stringify(masked) }),
        protocol_version: proposal.version,
        workload_to_run: { url: service.url, org: service.org, version: service.version, arch: service.arch },
        agbot_id: message.agbotId,
        agbot_public_key: keyOfAgbot,
        secret_names: names,
        declared_inputs: declared,
        ...(record ? { service_record: record } : {}),
      }),
    );
    recordSecrets(ctx.store, id, names, service, now);
  });
}

type PreCheck = { ok: true; deployment: Deployment } | { ok: false; reason: string };

/** Step D: failures here get no reply (the agbot times out), as upstream. */
function preChecks(p: Protocol, node: NodeRecord, terms: PolicyDocument): PreCheck {
  const workload = terms.workloads?.[0] ?? {};
  if (!workload.deployment) return { ok: false, reason: 'the workload has no deployment for a device node' };
  const pattern = patternMatches(terms, node.pattern);
  if (!pattern.ok) return pattern;
  if (activeAgreements(p.ctx.store).some((a) => a.name === terms.header.name))
    return { ok: false, reason: `an agreement named ${terms.header.name} is already active` };
  if (!archMatches(workload.arch, p.ctx.host.arch))
    return { ok: false, reason: `the service arch ${workload.arch} is not the node arch ${p.ctx.host.arch}` };
  if (!verifyDeployment(workload.deployment, workload.deployment_signature ?? '', trustedKeys(p.trust)))
    return { ok: false, reason: 'the deployment signature is not verified by any trusted key' };
  try {
    return { ok: true, deployment: parseDeployment(workload.deployment) };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}

type SecretCheck = { ok: true; values: Record<string, SecretValue> } | { ok: false; reason: string };

/** A value for every secret the deployment names, through the T&C's binding and details. */
function secretValues(terms: PolicyDocument, service: ServiceRef, deployment: Deployment): SecretCheck {
  const bound = resolveSecretBindings(service, secretsNamedBy(deployment), terms.secretBinding);
  if (!bound.ok) return bound;
  const details = findFor(terms.secretDetails, service, ['', '*']);
  const values: Record<string, SecretValue> = {};
  for (const { serviceSecret } of bound.bound ?? []) {
    const carried = details?.secrets?.find((entry) => serviceSecret in entry)?.[serviceSecret];
    if (!carried) return { ok: false, reason: `no value was sent for secret ${serviceSecret}` };
    try {
      values[serviceSecret] = decodeSecretValue(carried);
    } catch (error) {
      return { ok: false, reason: `secret ${serviceSecret}: ${(error as Error).message}` };
    }
  }
  return { ok: true, values };
}

/** Step E (proposal-checks.ts) with the node's current policy and user input. */
function decide(
  p: Protocol,
  terms: PolicyDocument,
  producerPolicy: PolicyDocument,
  service: ServiceRef,
  deployment: Deployment,
  declared: DeclaredInput[],
  secrets: SecretCheck,
): Check {
  return decideOnProposal({
    terms,
    producerPolicy,
    nodePolicy: loadPolicy(p.ctx.store) as NodePolicyDocument | undefined,
    nodeUserInput: loadUserInput(p.ctx.store),
    service,
    deployment,
    declared,
    secrets: secrets.ok ? { ok: true } : secrets,
    hostAccess: agentHostAccess(p.ctx.config),
  });
}
