import { agbotTokenKey } from '#lib/agbot/built-in';

/**
 * An agbot's partition (`AGBOT#<org>/<id>`): the agbot and its children (agreements, served
 * patterns and policies, search offsets, mailbox, sealed token), so one Query lists or deletes each kind.
 */
export const agbotKeys = {
  record: (org: string, id: string) => ({ pk: `AGBOT#${org}/${id}`, sk: 'AGBOT' }),
  agreement: (org: string, id: string, agreementId: string) => ({
    pk: `AGBOT#${org}/${id}`,
    sk: `AGREEMENT#${agreementId}`,
  }),
  pattern: (org: string, id: string, patternId: string) => ({
    pk: `AGBOT#${org}/${id}`,
    sk: `PATTERN#${patternId}`,
  }),
  policy: (org: string, id: string, policyId: string) => ({
    pk: `AGBOT#${org}/${id}`,
    sk: `BUSINESSPOL#${policyId}`,
  }),
  /** The agbot's paging state of one deployment-policy search. */
  searchOffset: (org: string, id: string, policyOrg: string, policy: string) => ({
    pk: `AGBOT#${org}/${id}`,
    sk: `SEARCHOFFSET#${policyOrg}/${policy}`,
  }),
  /** Message ids are zero-padded so the sort key orders them numerically (oldest first). */
  message: (org: string, id: string, msgId: number) => ({
    pk: `AGBOT#${org}/${id}`,
    sk: `MSG#${String(msgId).padStart(12, '0')}`,
  }),
  /** The built-in agbot's sealed token (lib/agbot/built-in.ts). */
  token: agbotTokenKey,
  /** The agbot's last message id (UpdateItem ADD): ids increase per agbot and are never reused. */
  messageSeq: (org: string, id: string) => ({ pk: `AGBOT#${org}/${id}`, sk: 'MSGSEQ' }),
  /** Sort-key prefixes of the agbot's children (for `begins_with` queries). */
  childPrefix: {
    agreement: 'AGREEMENT#',
    pattern: 'PATTERN#',
    policy: 'BUSINESSPOL#',
    message: 'MSG#',
  } as const,
  /** gsi1: an org's agbots. */
  orgIndex: (org: string) => `ORG#${org}#AGBOTS`,
  /**
   * gsi1: agreements by their own id, for `POST /agreements/confirm` (gsi1sk = owning agbot's
   * `org/id`; node agreements share the partition with gsi1sk `NODE#<org>/<id>`).
   */
  agreementByIdIndex: (agreementId: string) => `AGREEMENT#${agreementId}`,
  /** gsi1: the node messages an agbot sent (gsi1sk = `<nodeOrg>/<node>/<padded msgId>`): deleting the agbot finds them. */
  sentNodeMessagesIndex: (agbotOrg: string, agbotId: string) => `NODEMSGS#${agbotOrg}/${agbotId}`,
};
