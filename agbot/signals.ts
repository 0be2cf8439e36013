import type { Logger } from '#lib/json-logger';
import { SignalChannel } from '#lib/signals/channel';
import type { AgbotConfig } from './config.ts';
import type { agbotExchange } from './exchange.ts';

/**
 * The agbot's end of the signal channel (docs/signals.md): opened on the address POST /changes
 * announces, moved when it changes, closed when there is none or HZN_AGBOT_SIGNALS=off. A "look
 * now" (and every open: a signal may have been missed while closed) runs a round at once; the
 * rounds every poll interval go on as before, so timeouts and rescans keep their pace.
 */
export function agbotSignals(
  config: AgbotConfig,
  exchange: Pick<ReturnType<typeof agbotExchange>, 'authorization'>,
  log: Logger,
  lookNow: () => void,
) {
  let channel: SignalChannel | undefined;
  const stop = () => {
    channel?.stop();
    channel = undefined;
  };
  return {
    announced(url: string | undefined): void {
      if (!config.signals || !url) {
        stop();
        return;
      }
      if (channel?.url === url) return;
      stop();
      channel = new SignalChannel({
        url,
        authorization: exchange.authorization,
        onLookNow: lookNow,
        onOpen: lookNow,
        log,
      });
      channel.start();
    },
    stop,
  };
}
