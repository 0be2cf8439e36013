import { basicAuthHeader } from '#lib/auth/basic';
import { SignalChannel } from '#lib/signals/channel';
import { credentials, isActive, loadNode } from '../node/record.ts';
import type { AgentContext, AgentSignals } from '../runtime/context.ts';

/**
 * The agent's end of the signal channel (docs/signals.md). The poll hands over the address the
 * Exchange announced: the channel opens on the first one, moves when it changes, closes when
 * there is none (an upstream Exchange, a node no longer registered) or when HZN_AGENT_SIGNALS=off.
 * A "look now", and every (re)open, polls at once; a "mail now" (only its mailbox has something)
 * reads the mailbox without a feed read, as the feed would have had it do. While the channel is
 * open the poll itself slows down (workers.ts), and while it is closed the agent polls at its
 * usual pace.
 */
export function agentSignals(ctx: AgentContext): AgentSignals & { stop(): void } {
  let channel: SignalChannel | undefined;
  const close = () => {
    channel?.stop();
    channel = undefined;
  };
  return {
    announced(url) {
      if (!ctx.config.signals || !url || !isActive(loadNode(ctx.store))) return close();
      if (channel?.url === url) return;
      close();
      channel = new SignalChannel({
        url,
        authorization: () => {
          const node = loadNode(ctx.store);
          if (!isActive(node)) return '';
          const creds = credentials(node);
          return basicAuthHeader(`${creds.org}/${creds.id}`, creds.token);
        },
        onLookNow: () => ctx.pollNow(),
        onMail: () => (ctx.protocol ? ctx.protocol.mailArrived() : ctx.pollNow()),
        onOpen: () => ctx.pollNow(),
        log: ctx.log,
      });
      channel.start();
    },
    connected: () => channel?.connected === true,
    stop: close,
  };
}
