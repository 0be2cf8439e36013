/**
 * The signal channel's one message (docs/signals.md): "your feed has something, poll now". It
 * carries no data, so a signal can never tell a listener more than its next poll would.
 */
export const LOOK_NOW = '{"type":"look"}';

/**
 * The channel's address as the Exchange announces it (`EXCHANGE_SIGNALS_URL`, `ws://` or
 * `wss://`); unset when the Exchange has no signal channel, and then nothing is ever sent.
 */
export const signalsUrl = (): string | undefined => process.env.EXCHANGE_SIGNALS_URL || undefined;

/** The POST /changes response header that announces the channel's address to nodes and agbots. */
export const SIGNALS_HEADER = 'X-Exchange-Signals';
