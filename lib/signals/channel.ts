import type WebSocket from 'ws';
import { LOOK_NOW, MAIL_NOW, SIGNALS_ACCEPT_HEADER } from './address.ts';

/**
 * A node's or agbot's end of the signal channel (docs/signals.md): one connection to the address
 * the Exchange announced, authenticated with the same Basic credentials as its HTTP requests. A
 * "look now" calls `onLookNow` (the owner polls at once); a "mail now", asked for by giving
 * `onMail`, calls it (the owner reads its mailbox); every open calls `onOpen` (a signal may
 * have been missed while closed, so the owner polls then too). A keepalive every `keepaliveMs`
 * keeps API Gateway from closing it as idle (10 minutes); TCP keepalive notices a dead peer.
 * Closed, refused or unreachable, it reconnects with jittered exponential backoff; meanwhile the
 * owner simply polls at its usual pace.
 */
interface SignalChannelOptions {
  url: string;
  /** The `Authorization` header value, read at each connect (credentials may change). */
  authorization: () => string;
  onLookNow: () => void;
  /** Asks the Exchange for MAIL_NOW when only the mailbox has something (a node's): it is called then. */
  onMail?: () => void;
  onOpen?: () => void;
  onClose?: () => void;
  log: { info(msg: string, fields?: object): void; debug(msg: string, fields?: object): void };
  keepaliveMs?: number;
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
}

/** Under API Gateway's 10-minute idle timeout, with room for a slow send. */
const KEEPALIVE_MS = 9 * 60_000;
const KEEPALIVE_MESSAGE = '{"action":"keepalive"}';
const TCP_KEEPALIVE_MS = 60_000;
const HANDSHAKE_TIMEOUT_MS = 10_000;

export class SignalChannel {
  private socket: WebSocket | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private keepaliveTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;
  private open = false;

  constructor(private readonly options: SignalChannelOptions) {}

  get url(): string {
    return this.options.url;
  }

  /** Whether the channel is open now (the owner may then poll slowly). */
  get connected(): boolean {
    return this.open;
  }

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    this.socket?.removeAllListeners();
    this.socket?.on('error', () => {});
    this.socket?.terminate();
    this.socket = undefined;
    this.closed();
  }

  /** `ws` loads node:https and node:tls (~4 MB): only a process that opens a channel pays for them. */
  private connect(): void {
    import('ws')
      .then(({ default: WebSocketClass }) => {
        if (!this.stopped) this.openSocket(WebSocketClass);
      })
      .catch((error: Error) =>
        this.options.log.debug('signal channel unavailable', { error: error.message }),
      );
  }

  private openSocket(WebSocketClass: typeof WebSocket): void {
    const socket = new WebSocketClass(this.options.url, {
      headers: {
        authorization: this.options.authorization(),
        ...(this.options.onMail ? { [SIGNALS_ACCEPT_HEADER]: 'mail' } : {}),
      },
      handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
      perMessageDeflate: false,
    });
    this.socket = socket;
    socket.on('upgrade', (response) => response.socket.setKeepAlive(true, TCP_KEEPALIVE_MS));
    socket.on('open', () => {
      this.failures = 0;
      this.open = true;
      this.keepaliveTimer = setInterval(
        () => socket.send(KEEPALIVE_MESSAGE),
        this.options.keepaliveMs ?? KEEPALIVE_MS,
      );
      this.keepaliveTimer.unref();
      this.options.log.info('signal channel open', { url: this.options.url });
      this.options.onOpen?.();
    });
    socket.on('message', (data) => {
      const message = String(data);
      if (message === LOOK_NOW) this.options.onLookNow();
      else if (message === MAIL_NOW) (this.options.onMail ?? this.options.onLookNow)();
    });
    socket.on('unexpected-response', (request, response) => {
      this.options.log.debug('signal channel refused', { status: response.statusCode });
      request.destroy();
      this.lost(socket);
    });
    socket.on('error', (error) => {
      this.options.log.debug('signal channel error', { error: error.message });
      this.lost(socket);
    });
    socket.on('close', () => this.lost(socket));
  }

  /** The socket is gone (closed, refused, failed): once per socket, reconnect later. */
  private lost(socket: WebSocket): void {
    if (socket !== this.socket) return;
    this.socket = undefined;
    socket.removeAllListeners();
    socket.on('error', () => {});
    socket.terminate();
    const wasOpen = this.open;
    this.closed();
    if (wasOpen) this.options.log.info('signal channel closed', { url: this.options.url });
    if (this.stopped) return;
    const min = this.options.reconnectMinMs ?? 1_000;
    const max = this.options.reconnectMaxMs ?? 5 * 60_000;
    // A connection that was open (API Gateway's 2-hour limit, a redeploy) comes back at once.
    const delay = wasOpen ? min : Math.min(max, min * 2 ** this.failures) * (0.5 + Math.random() / 2);
    this.failures += wasOpen ? 0 : 1;
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
    this.reconnectTimer.unref();
  }

  private closed(): void {
    clearInterval(this.keepaliveTimer);
    if (!this.open) return;
    this.open = false;
    this.options.onClose?.();
  }
}
