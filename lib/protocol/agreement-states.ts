/**
 * The `state` strings each side writes on its agreement row in the Exchange (docs/protocol.md#agreement-rows-and-states).
 * Upstream's spellings exactly: the capital A of PRODUCER_AGREED_ON_RESYNC is anax's own (an agbot
 * restart writes it, the normal flow does not), and a search only skips a node whose node
 * agreement has a non-empty state.
 */
export const AGBOT_STATES = {
  /** PUT .../agbots/{a}/agreements/{id} when the proposal is sent. */
  formedProposal: 'Formed Proposal',
  /** After a positive reply. */
  producerAgreed: 'Producer agreed',
  /** Written by anax's restart re-sync only. */
  producerAgreedOnResync: 'Producer Agreed',
  /** Right after the replyack (Basic has no later step). */
  finalized: 'Finalized Agreement',
  unknown: 'unknown',
} as const;

export const NODE_STATES = {
  /** PUT .../nodes/{n}/agreements/{id}?noheartbeat=true on accepting (RecordReply). */
  agreed: 'Agree to proposal',
  finalized: 'Finalized Agreement',
  unknown: 'unknown',
} as const;
