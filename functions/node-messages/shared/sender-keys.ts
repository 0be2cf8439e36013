/**
 * The public keys of the agbots that posted through this instance (`org/id` → key), so that a
 * post to a node's mailbox need not read its sender (functions/node-messages/shared/access.ts).
 * Never trusted alone: the post's transaction checks that the agbot's record still holds the key
 * (tables/mailbox/post.ts, `senderKey`), and a post that finds it changed reads it again. A
 * deployment has a handful of agbots; the bound only keeps a misbehaving caller from growing it.
 */
const MAX_SENDERS = 1_000;
const keys = new Map<string, string>();

export const rememberedSenderKey = (agbot: string): string | undefined => keys.get(agbot);

export function rememberSenderKey(agbot: string, publicKey: string): void {
  keys.delete(agbot);
  if (keys.size >= MAX_SENDERS) {
    const oldest = keys.keys().next().value;
    if (oldest !== undefined) keys.delete(oldest);
  }
  keys.set(agbot, publicKey);
}

export const forgetSenderKey = (agbot: string): void => {
  keys.delete(agbot);
};
