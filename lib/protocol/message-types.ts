/**
 * The Basic agreement protocol's names (docs/protocol.md#messages; anax abstractprotocol/ and
 * basicprotocol/protocol.go). Spellings are upstream's, including the doubled `t` of the
 * policy-change update type.
 */
export const PROTOCOL_NAME = 'Basic' as const;
export const PROTOCOL_VERSION = 1;

export const MESSAGE_TYPES = {
  proposal: 'proposal',
  reply: 'reply',
  replyAck: 'replyack',
  /** Legacy: this agbot never sends it; a node still answers it with the ack. */
  dataReceived: 'dataverification',
  dataReceivedAck: 'dataverificationack',
  cancel: 'cancel',
  verify: 'basicagreementverification',
  verifyReply: 'basicagreementverificationreply',
  update: 'basicagreementupdate',
  updateReply: 'basicagreementupdatereply',
} as const;

export type MessageType = (typeof MESSAGE_TYPES)[keyof typeof MESSAGE_TYPES];

export const UPDATE_TYPES = {
  secret: 'basicagreementupdatesecret',
  policyChange: 'basicagreementtupdatepolicychange',
} as const;
