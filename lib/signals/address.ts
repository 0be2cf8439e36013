/**
 * The signal channel's message (docs/signals.md): "your feed has something, poll now". It carries
 * no data, so a signal can never tell a listener more than its next poll would.
 */
export const LOOK_NOW = '{"type":"look"}';

/**
 * "Your mailbox has something, and nothing else in your feed is new": sent in place of LOOK_NOW
 * only to a node that asked for it when it connected (SIGNALS_ACCEPT_HEADER), so that an agent
 * installed before it was added is still woken. The node reads its mailbox without a feed read;
 * the rows stay in its feed for its next poll. It names only the node's own mailbox, which the
 * node's next poll would name too.
 */
export const MAIL_NOW = '{"type":"mail"}';

/** The upgrade request's header by which a node asks for MAIL_NOW (its value: `mail`). */
export const SIGNALS_ACCEPT_HEADER = 'X-Exchange-Signals-Accept';

/**
 * The channel's address as the Exchange announces it (`EXCHANGE_SIGNALS_URL`, `ws://` or
 * `wss://`); unset when the Exchange has no signal channel, and then nothing is ever sent.
 */
export const signalsUrl = (): string | undefined => process.env.EXCHANGE_SIGNALS_URL || undefined;

/** The POST /changes response header that announces the channel's address to nodes and agbots. */
export const SIGNALS_HEADER = 'X-Exchange-Signals';

/**
 * The announced address a client may use, or undefined: a WebSocket URL, and `wss://` whenever the
 * Exchange itself is reached over HTTPS, so the credentials the channel's upgrade carries are never
 * sent in clear where the HTTP requests were not.
 */
export function usableSignalsUrl(announced: unknown, exchangeUrl: string): string | undefined {
  if (typeof announced !== 'string' || !URL.canParse(announced)) return undefined;
  const { protocol } = new URL(announced);
  if (protocol === 'wss:') return announced;
  return protocol === 'ws:' && !exchangeUrl.startsWith('https:') ? announced : undefined;
}
