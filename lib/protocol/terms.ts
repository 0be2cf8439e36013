/**
 * The T&C the agbot proposes (docs/protocol.md#proposal-and-terms): the consumer side (deployment policy ⊕ service
 * policy ⊕ service built-ins) with exactly one workload, the chosen service version, whose
 * deployment and signature are copied from the Exchange's service definition. Keys are in Go's
 * field order and the legacy sections upstream always emits are present as empty objects.
 */
import { PROTOCOL_NAME, PROTOCOL_VERSION } from './message-types.ts';
import {
  POLICY_DOCUMENT_VERSION,
  type PolicyDocument,
  type Property,
  termsName,
  type UserInput,
  type Workload,
} from './policy-document.ts';
import type { SecretBinding } from './secret-binding.ts';

interface TermsInput {
  /** The producer (node) policy's header name, `Policy for <org>/<node>`. */
  producerPolicyName: string;
  /** The consumer policy's name: `<org>/<deployment policy>` (or the pattern's internal name). */
  consumerPolicyName: string;
  /** `<org>/<pattern>`, pattern case only. */
  patternId?: string;
  workload: {
    url: string;
    org: string;
    version: string;
    arch: string;
    deployment: string;
    deploymentSignature: string;
    priority?: Workload['priority'];
  };
  properties: Property[];
  constraints: string[];
  nodeHealth?: PolicyDocument['nodeHealth'];
  userInput?: UserInput[];
  secretBinding?: SecretBinding[];
  /** The values of the bindings the chosen service needs (encodeSecretValue). */
  secretDetails?: SecretBinding[];
}

const nonEmpty = <T>(list: T[] | undefined): T[] | undefined => (list && list.length > 0 ? list : undefined);

export function buildTerms(input: TermsInput): PolicyDocument {
  const w = input.workload;
  // JSON.stringify drops undefined members, as Go's omitempty drops empty ones.
  return {
    header: {
      name: termsName(input.producerPolicyName, input.consumerPolicyName),
      version: POLICY_DOCUMENT_VERSION,
    },
    patternId: input.patternId || undefined,
    agreementProtocols: [{ name: PROTOCOL_NAME, protocolVersion: PROTOCOL_VERSION }],
    workloads: [
      {
        deployment: w.deployment || undefined,
        deployment_signature: w.deploymentSignature || undefined,
        priority: w.priority ?? {},
        workloadUrl: w.url,
        organization: w.org,
        version: w.version,
        arch: w.arch,
      },
    ],
    valueExchange: {},
    dataVerification: { metering: {} },
    proposalRejection: {},
    properties: nonEmpty(input.properties),
    constraints: nonEmpty(input.constraints),
    nodeHealth: input.nodeHealth ?? {},
    userInput: nonEmpty(input.userInput),
    secretBinding: nonEmpty(input.secretBinding),
    secretDetails: nonEmpty(input.secretDetails),
  };
}
