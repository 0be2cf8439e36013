import { serializeMessage } from '#lib/protocol/build-message';
import { seal } from '#lib/protocol/envelope-seal';
import { parseExchangePublicKey } from '#lib/protocol/keys';
import type { ProtocolMessage } from '#lib/protocol/messages';
import { NODE_MESSAGE_TTL_S } from '#lib/protocol/timeouts';
import type { Credentials } from '../exchange/client.ts';
import { agbotPublicKey, sendToAgbot } from './exchange-calls.ts';
import type { Protocol } from './protocol.ts';
import type { ProtocolAgreement } from './records.ts';

/** Signs `message` with the node's key, seals it for the agbot's key and posts it to its mailbox. */
export async function sendMessage(
  p: Protocol,
  creds: Credentials,
  agbotId: string,
  agbotKey: string,
  message: ProtocolMessage,
): Promise<void> {
  const keys = await p.keys();
  const sealed = seal(serializeMessage(message), keys.privateKey, parseExchangePublicKey(agbotKey));
  await sendToAgbot(p.ctx, creds, agbotId, sealed, NODE_MESSAGE_TTL_S);
}

/**
 * A message about an existing agreement, to the agbot that proposed it: its current key is read
 * from the Exchange (upstream does so for every later send), else the one the proposal came with.
 */
export async function sendAbout(
  p: Protocol,
  creds: Credentials,
  agreement: ProtocolAgreement,
  message: ProtocolMessage,
): Promise<boolean> {
  const agbotId = agreement.agbot_id || agreement.consumer_id;
  if (!agbotId) return false;
  const key = (await agbotPublicKey(p.ctx, creds, agbotId)) ?? agreement.agbot_public_key;
  if (!key) return false;
  await sendMessage(p, creds, agbotId, key, message);
  return true;
}
