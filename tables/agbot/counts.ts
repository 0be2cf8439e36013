import { agbotKeys } from '../keys/agbot.ts';
import type { Counts } from '../org/stats.ts';

/** A message's sort key is `MSG#` and digits; other `MSG…` items (an id counter, say) are not messages. */
const MESSAGE_SK = /^MSG#\d+$/;

/** The org counter changes for deleting these items of an agbot's partition. */
export function agbotChildDeltas(removed: { sk: string }[]): Partial<Counts> {
  let agreements = 0;
  let messages = 0;
  for (const { sk } of removed) {
    if (sk.startsWith(agbotKeys.childPrefix.agreement)) agreements++;
    else if (MESSAGE_SK.test(sk)) messages++;
  }
  return { agbotAgreements: -agreements, agbotMsgs: -messages };
}
