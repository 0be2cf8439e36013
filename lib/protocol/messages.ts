/**
 * The Basic protocol's messages (docs/protocol.md#messages) as zod schemas: what the agbot and the node send
 * each other inside the envelope. Every message has `type`, `protocol` ("Basic"), `version` and
 * `agreementId`; the fields after them are the message's own. Unknown keys are dropped, as Go
 * ignores them; a field upstream always sends is required with its type.
 */
import * as z from 'zod';
import { agreementIdSchema } from './agreement-id.ts';
import { MESSAGE_TYPES, PROTOCOL_NAME, UPDATE_TYPES } from './message-types.ts';
import { policyDocumentSchema } from './policy-document.ts';
import { secretBindingSchema } from './secret-binding.ts';

const nonEmpty = z.string().min(1, 'must not be empty');

const base = <T extends string>(type: T) =>
  z.object({
    type: z.literal(type),
    protocol: z.literal(PROTOCOL_NAME),
    version: z.int(),
    agreementId: agreementIdSchema,
  });

const proposalSchema = base(MESSAGE_TYPES.proposal).extend({
  /** The T&C policy document, serialised as a JSON string (double encoding, as upstream). */
  tsandcs: nonEmpty,
  /** The node policy the agbot matched, serialised as a JSON string. */
  producerPolicy: nonEmpty,
  /** The agbot, `org/id`. */
  consumerId: nonEmpty,
});

const replySchema = base(MESSAGE_TYPES.reply).extend({
  decision: z.boolean(),
  /** The node, `org/id`. */
  deviceId: nonEmpty,
});

/** `decision` is upstream's JSON name for "the agreement is still valid". */
const replyAckSchema = base(MESSAGE_TYPES.replyAck).extend({ decision: z.boolean() });

const dataReceivedSchema = base(MESSAGE_TYPES.dataReceived);
const dataReceivedAckSchema = base(MESSAGE_TYPES.dataReceivedAck);

const cancelSchema = base(MESSAGE_TYPES.cancel).extend({ reason: z.int().nonnegative() });

const verifySchema = base(MESSAGE_TYPES.verify);
const verifyReplySchema = base(MESSAGE_TYPES.verifyReply).extend({ exists: z.boolean() });

const secretUpdateSchema = base(MESSAGE_TYPES.update).extend({
  updateType: z.literal(UPDATE_TYPES.secret),
  /** Only the bindings holding a changed secret, and in them only the changed secrets. */
  metadata: z.array(secretBindingSchema),
});
/** The whole new T&C as an object (not a string, unlike the proposal's tsandcs). */
const policyChangeUpdateSchema = base(MESSAGE_TYPES.update).extend({
  updateType: z.literal(UPDATE_TYPES.policyChange),
  metadata: policyDocumentSchema,
});
/** Another update type parses, so that the receiver can reject it with an update reply (upstream). */
const otherUpdateSchema = base(MESSAGE_TYPES.update).extend({
  updateType: z.string().refine((t) => t !== UPDATE_TYPES.secret && t !== UPDATE_TYPES.policyChange),
  metadata: z.unknown().optional(),
});
const updateSchema = z.union([secretUpdateSchema, policyChangeUpdateSchema, otherUpdateSchema]);

const updateReplySchema = base(MESSAGE_TYPES.updateReply).extend({
  updateType: z.string(),
  accepted: z.boolean(),
});

export type Proposal = z.infer<typeof proposalSchema>;
export type Reply = z.infer<typeof replySchema>;
export type ReplyAck = z.infer<typeof replyAckSchema>;
type DataReceived = z.infer<typeof dataReceivedSchema>;
export type DataReceivedAck = z.infer<typeof dataReceivedAckSchema>;
export type Cancel = z.infer<typeof cancelSchema>;
export type Verify = z.infer<typeof verifySchema>;
export type VerifyReply = z.infer<typeof verifyReplySchema>;
export type SecretUpdate = z.infer<typeof secretUpdateSchema>;
export type PolicyChangeUpdate = z.infer<typeof policyChangeUpdateSchema>;
export type Update = z.infer<typeof updateSchema>;
export type UpdateReply = z.infer<typeof updateReplySchema>;

export type ProtocolMessage =
  | Proposal
  | Reply
  | ReplyAck
  | DataReceived
  | DataReceivedAck
  | Cancel
  | Verify
  | VerifyReply
  | Update
  | UpdateReply;

const UPDATE_SCHEMAS: Record<string, z.ZodType> = {
  [UPDATE_TYPES.secret]: secretUpdateSchema,
  [UPDATE_TYPES.policyChange]: policyChangeUpdateSchema,
};

/** An update's schema chosen by its updateType, so an error names the field that is wrong. */
export const updateSchemaFor = (updateType: unknown): z.ZodType =>
  (typeof updateType === 'string' && UPDATE_SCHEMAS[updateType]) || otherUpdateSchema;

export const messageSchemas = {
  [MESSAGE_TYPES.proposal]: proposalSchema,
  [MESSAGE_TYPES.reply]: replySchema,
  [MESSAGE_TYPES.replyAck]: replyAckSchema,
  [MESSAGE_TYPES.dataReceived]: dataReceivedSchema,
  [MESSAGE_TYPES.dataReceivedAck]: dataReceivedAckSchema,
  [MESSAGE_TYPES.cancel]: cancelSchema,
  [MESSAGE_TYPES.verify]: verifySchema,
  [MESSAGE_TYPES.verifyReply]: verifyReplySchema,
  [MESSAGE_TYPES.update]: updateSchema,
  [MESSAGE_TYPES.updateReply]: updateReplySchema,
} as const;
