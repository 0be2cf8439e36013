import { MESSAGE_TYPES, type MessageType } from './message-types.ts';
import type { Proposal } from './messages.ts';
import { messageSchemas, type ProtocolMessage, updateSchemaFor } from './messages.ts';
import { type PolicyDocument, policyDocumentSchema } from './policy-document.ts';

/** The text is not a Basic protocol message we can act on; upstream deletes such a message. */
export class MessageFormatError extends Error {
  override name = 'MessageFormatError';
}

/** A well-formed message of a type this protocol does not handle (upstream deletes it too). */
export class UnknownMessageTypeError extends MessageFormatError {
  override name = 'UnknownMessageTypeError';
  constructor(readonly type: string) {
    super(`unknown message type "${type.slice(0, 64)}"`);
  }
}

const KNOWN_TYPES = new Set<string>(Object.values(MESSAGE_TYPES));

/**
 * Parses a decrypted message (envelope-open's `message`). Errors name the field, never echo
 * values: a proposal or update may carry secrets.
 */
export function parseMessage(text: string): ProtocolMessage {
  const json = parseJson(text, 'the message is not JSON');
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new MessageFormatError('the message is not a JSON object');
  const type = (json as { type?: unknown }).type;
  if (typeof type !== 'string' || type === '') throw new MessageFormatError('the message has no type');
  if (!KNOWN_TYPES.has(type)) throw new UnknownMessageTypeError(type);
  const schema =
    type === MESSAGE_TYPES.update
      ? updateSchemaFor((json as { updateType?: unknown }).updateType)
      : messageSchemas[type as MessageType];
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(message)'))];
    throw new MessageFormatError(`${type}: bad or missing ${fields.join(', ')}`);
  }
  return parsed.data as ProtocolMessage;
}

export interface ProposalContents {
  terms: PolicyDocument;
  producerPolicy: PolicyDocument;
}

/**
 * Decodes the proposal's double-encoded `tsandcs` and `producerPolicy`. The T&C must name exactly
 * one workload (the version the agbot chose) and have a header name, which the node uses to
 * refuse duplicates.
 */
export function readProposal(proposal: Proposal): ProposalContents {
  const terms = policyOf(proposal.tsandcs, 'tsandcs');
  const producerPolicy = policyOf(proposal.producerPolicy, 'producerPolicy');
  if (terms.header.name === '') throw new MessageFormatError('tsandcs: the header has no name');
  if (terms.workloads?.length !== 1)
    throw new MessageFormatError('tsandcs: there must be exactly one workload');
  return { terms, producerPolicy };
}

function policyOf(text: string, field: string): PolicyDocument {
  const parsed = policyDocumentSchema.safeParse(parseJson(text, `${field} is not a JSON string`));
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(document)'))];
    throw new MessageFormatError(`${field}: bad or missing ${fields.join(', ')}`);
  }
  return parsed.data;
}

function parseJson(text: string, problem: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new MessageFormatError(problem);
  }
}
