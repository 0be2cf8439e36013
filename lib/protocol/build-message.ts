/**
 * Builders for every message either side sends, with upstream's field order (Go marshals struct
 * fields in declaration order: type, protocol, version, agreementId, then the message's own), so
 * `serializeMessage` of a built message is byte-for-byte what anax would send.
 */
import { goJsonStringify } from './go-json.ts';
import { MESSAGE_TYPES, PROTOCOL_NAME, PROTOCOL_VERSION, UPDATE_TYPES } from './message-types.ts';
import type {
  Cancel,
  DataReceivedAck,
  PolicyChangeUpdate,
  Proposal,
  ProtocolMessage,
  Reply,
  ReplyAck,
  SecretUpdate,
  UpdateReply,
  Verify,
  VerifyReply,
} from './messages.ts';
import type { PolicyDocument } from './policy-document.ts';
import type { SecretBinding } from './secret-binding.ts';

const header = <T extends string>(type: T, agreementId: string) => ({
  type,
  protocol: PROTOCOL_NAME,
  version: PROTOCOL_VERSION,
  agreementId,
});

/** agbot → node. `terms` and `producerPolicy` travel as JSON strings inside the message. */
export const buildProposal = (p: {
  agreementId: string;
  terms: PolicyDocument;
  producerPolicy: PolicyDocument;
  consumerId: string;
}): Proposal => ({
  ...header(MESSAGE_TYPES.proposal, p.agreementId),
  tsandcs: goJsonStringify(p.terms),
  producerPolicy: goJsonStringify(p.producerPolicy),
  consumerId: p.consumerId,
});

/** node → agbot: the decision on a proposal. */
export const buildReply = (agreementId: string, decision: boolean, deviceId: string): Reply => ({
  ...header(MESSAGE_TYPES.reply, agreementId),
  decision,
  deviceId,
});

/** agbot → node: whether the agreement is still valid after the reply. */
export const buildReplyAck = (agreementId: string, stillValid: boolean): ReplyAck => ({
  ...header(MESSAGE_TYPES.replyAck, agreementId),
  decision: stillValid,
});

/** node → agbot: the answer to a legacy `dataverification`. */
export const buildDataReceivedAck = (agreementId: string): DataReceivedAck =>
  header(MESSAGE_TYPES.dataReceivedAck, agreementId);

/** Either side; `reason` is a code of reason-codes.ts. */
export const buildCancel = (agreementId: string, reason: number): Cancel => ({
  ...header(MESSAGE_TYPES.cancel, agreementId),
  reason,
});

export const buildVerify = (agreementId: string): Verify => header(MESSAGE_TYPES.verify, agreementId);

export const buildVerifyReply = (agreementId: string, exists: boolean): VerifyReply => ({
  ...header(MESSAGE_TYPES.verifyReply, agreementId),
  exists,
});

/** agbot → node: new values of bound secrets (values already encoded, see secret-binding.ts). */
export const buildSecretUpdate = (agreementId: string, bindings: SecretBinding[]): SecretUpdate => ({
  ...header(MESSAGE_TYPES.update, agreementId),
  updateType: UPDATE_TYPES.secret,
  metadata: bindings,
});

/** agbot → node: the whole new T&C, as an object. */
export const buildPolicyChangeUpdate = (agreementId: string, terms: PolicyDocument): PolicyChangeUpdate => ({
  ...header(MESSAGE_TYPES.update, agreementId),
  updateType: UPDATE_TYPES.policyChange,
  metadata: terms,
});

export const buildUpdateReply = (
  agreementId: string,
  updateType: string,
  accepted: boolean,
): UpdateReply => ({
  ...header(MESSAGE_TYPES.updateReply, agreementId),
  updateType,
  accepted,
});

/** The text to seal, written as Go's json.Marshal would. */
export const serializeMessage = (message: ProtocolMessage): string => goJsonStringify(message);
