/**
 * A scripted node for the agbot's tests and bench: registers over the Exchange's HTTP API as an
 * agent would (node record, node policy, heartbeat, then its messaging key), reads and answers
 * the agbot's messages with lib/protocol (the same envelope and messages as the real agent),
 * and writes its node agreement rows. No agent logic: the test decides every answer.
 */
import { NODE_STATES } from '#lib/protocol/agreement-states';
import { serializeMessage } from '#lib/protocol/build-message';
import { open } from '#lib/protocol/envelope-open';
import { seal } from '#lib/protocol/envelope-seal';
import {
  exchangePublicKey,
  generateMessagingKeys,
  type MessagingKeys,
  parseExchangePublicKey,
} from '#lib/protocol/keys';
import type { ProtocolMessage } from '#lib/protocol/messages';
import { parseMessage } from '#lib/protocol/parse-message';
import { NODE_MESSAGE_TTL_S } from '#lib/protocol/timeouts';

export interface Credentials {
  user: string;
  secret: string;
}

export interface Received {
  msgId: number;
  agbotId: string;
  agbotPubKey: string;
  message: ProtocolMessage;
}

export async function exchangeCall(
  baseUrl: string,
  auth: Credentials,
  method: string,
  path: string,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: test answers are read field by field.
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${baseUrl}/v1${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${auth.user}:${auth.secret}`).toString('base64')}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

export class ScriptedNode {
  readonly keys: MessagingKeys;
  readonly creds: Credentials;
  /** Every message received, in order (tests look back at them). */
  readonly received: Received[] = [];

  constructor(
    readonly baseUrl: string,
    readonly org: string,
    readonly id: string,
    token = `${id}-token-scripted`,
    /** Many nodes of a bench may share one key pair (the Exchange does not mind; key generation is slow). */
    keys?: MessagingKeys,
  ) {
    this.keys = keys ?? generateMessagingKeys();
    this.creds = { user: `${org}/${id}`, secret: token };
  }

  get path(): string {
    return `/orgs/${this.org}/nodes/${this.id}`;
  }

  private async must(auth: Credentials, method: string, path: string, body: unknown, ok: number[]) {
    const answer = await exchangeCall(this.baseUrl, auth, method, path, body);
    if (!ok.includes(answer.status))
      throw new Error(`${method} ${path} → ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer;
  }

  /**
   * Node record (by its owner), node policy, a heartbeat, then the key: the node is findable.
   * A pattern node (`pattern` = `org/name`) may have no policy (`policy` undefined).
   */
  async register(
    owner: Credentials,
    policy: { properties: { name: string; value: unknown }[]; constraints?: string[] } | undefined,
    arch = 'amd64',
    pattern = '',
  ): Promise<void> {
    const record = { name: this.id, token: this.creds.secret, pattern, publicKey: '', arch };
    await this.must(owner, 'PUT', this.path, record, [201]);
    if (policy) await this.setPolicy(policy);
    await this.heartbeat();
    await this.must(
      this.creds,
      'PATCH',
      this.path,
      { publicKey: exchangePublicKey(this.keys.publicKey) },
      [200, 201],
    );
  }

  /** The heartbeat that makes a registered node findable (a subclass may send the agent's instead). */
  protected async heartbeat(): Promise<void> {
    await this.must(this.creds, 'POST', `${this.path}/heartbeat`, undefined, [200, 201]);
  }

  async setPolicy(policy: { properties: { name: string; value: unknown }[]; constraints?: string[] }) {
    const body = { label: 'scripted', description: 'scripted node', constraints: [], ...policy };
    await this.must(this.creds, 'PUT', `${this.path}/policy`, body, [200, 201]);
  }

  /**
   * Reads, opens, parses and deletes the node's messages; appends them to `received`. With
   * `deleteNow` false the caller deletes each one (`deleteMessage`) once it has handled it.
   */
  async poll(deleteNow = true): Promise<Received[]> {
    const answer = await exchangeCall(this.baseUrl, this.creds, 'GET', `${this.path}/msgs`);
    const got: Received[] = [];
    for (const m of (answer.body?.messages ?? []) as {
      msgId: number;
      agbotId: string;
      agbotPubKey: string;
      message: string;
    }[]) {
      const opened = open(m.message, this.keys.privateKey, m.agbotPubKey);
      got.push({
        msgId: m.msgId,
        agbotId: m.agbotId,
        agbotPubKey: m.agbotPubKey,
        message: parseMessage(opened.message),
      });
      if (deleteNow) await this.deleteMessage(m.msgId);
    }
    this.received.push(...got);
    return got;
  }

  async deleteMessage(msgId: number): Promise<void> {
    await exchangeCall(this.baseUrl, this.creds, 'DELETE', `${this.path}/msgs/${msgId}`);
  }

  /** Polls until a received message satisfies `match` (looking at earlier ones too). */
  async waitFor(match: (m: ProtocolMessage) => boolean, timeoutMs = 20_000): Promise<Received> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find((r) => match(r.message));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`${this.id}: no matching message within ${timeoutMs} ms`);
      await this.poll();
      if (!this.received.some((r) => match(r.message))) await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Seals `message` for the agbot and posts it to the agbot's mailbox. */
  async send(to: { agbotId: string; agbotPubKey: string }, message: ProtocolMessage): Promise<void> {
    const sealed = seal(
      serializeMessage(message),
      this.keys.privateKey,
      parseExchangePublicKey(to.agbotPubKey),
    );
    const [org, id] = to.agbotId.split('/');
    await this.must(
      this.creds,
      'POST',
      `/orgs/${org}/agbots/${id}/msgs`,
      // The agent's TTL: a shorter one let replies expire unread at 10,000 nodes (docs/benchmarks.md).
      { message: sealed, ttl: NODE_MESSAGE_TTL_S },
      [201],
    );
  }

  /** The node agreement row as the agent writes it on acceptance (docs/protocol.md#agreement-rows-and-states). */
  async putAgreement(
    agreementId: string,
    service: { org: string; url: string },
    state: string = NODE_STATES.agreed,
    pattern = '',
  ) {
    const body = {
      agreementService: { orgid: this.org, pattern, url: `${service.org}/${service.url}` },
      state,
    };
    await this.must(
      this.creds,
      'PUT',
      `${this.path}/agreements/${agreementId}?noheartbeat=true`,
      body,
      [200, 201],
    );
  }
}
