import { createNode } from '#test/support/identities';

/**
 * A node that may send messages: upstream requires the sender to have registered a public key.
 * The key is in its principal item too, as the node writes put it (tables/identity/records.ts).
 */
export const createSender = (org: string, id: string, owner: string, publicKey = `${id}-public-key`) =>
  createNode(org, id, owner, { publicKey });
