import { handler as listNodeMessages } from '#functions/node-messages/list-messages';
import { handler as postNodeMessage } from '#functions/node-messages/post-message';
import { nodeMailbox } from '#tables/node/message-records';
import { invoke } from '#test/support/invoke';
import { CONNECTIONS, type LoadResult, loadWith } from './http-load.ts';
import { type Credentials, callsPerRequest } from './in-process.ts';
import { agbotId, BASE_AGBOTS, fillMailbox, type MailboxCast, senderId, WAITING } from './messages-seed.ts';
import { ORG } from './seed.ts';

/**
 * Node messages in `npm run bench`: agbot-0…9 (PUT with a public key by messages-seed.ts) post to
 * the nodes sender-1…9; node sender-0 reads its mailbox of 100 waiting messages. Warm DynamoDB
 * calls of POST and GET in-process; POST and GET over HTTP with 10 clients, POST both spread over
 * 9 nodes and all into one node (where every post races for the same mailbox state).
 */
const step = (text: string) => console.log(`[bench] ${text}`);
const MESSAGE = { message: `an encrypted proposal: ${'x'.repeat(200)}`, ttl: 3600 };
const agbot = (i: number): Credentials => ({ user: `${ORG}/${agbotId(i)}`, secret: `agbot-token-${i}` });
const nodeMsgs = (node: string) => `/v1/orgs/${ORG}/nodes/${node}/msgs`;
/** POST targets: sender-1…9 (sender-0's mailbox stays at 100 for the GETs). */
const spreadTarget = (client: number) => senderId((client % (BASE_AGBOTS - 1)) + 1);

export interface NodeMessageFigures {
  calls: { post: number; get: number };
  http: { postSpread: LoadResult; postOneNode: LoadResult; get: LoadResult };
}

async function handlerPost(sender: Credentials, node: string): Promise<void> {
  const result = await invoke(postNodeMessage, {
    auth: sender,
    path: { organization: ORG, node },
    body: MESSAGE,
  });
  if (result.status !== 201) throw new Error(`POST node msg → ${result.status}: ${result.text}`);
}

async function handlerGet(reader: Credentials): Promise<void> {
  const result = await invoke(listNodeMessages, {
    auth: reader,
    path: { organization: ORG, node: senderId(0) },
  });
  if (result.status !== 200 || result.body.messages.length !== WAITING) {
    throw new Error(`GET node msgs → ${result.status}: ${result.text.slice(0, 300)}`);
  }
}

/** Fills sender-0's mailbox with 100 messages; warm calls per request. */
export async function seedAndCount(cast: MailboxCast): Promise<NodeMessageFigures['calls']> {
  step(`seeding ${WAITING} messages in node ${senderId(0)}'s mailbox`);
  await fillMailbox(nodeMailbox(ORG, senderId(0)), WAITING, 24 * 3600 * 1000, (msgId) => ({
    senderId: `${ORG}/${agbotId(msgId % BASE_AGBOTS)}`,
    senderPubKey: `agbot-key-${msgId % BASE_AGBOTS}`,
  }));
  const reader = cast.senders[0] as Credentials;
  const calls = {
    post: await callsPerRequest(() => handlerPost(agbot(0), senderId(1))),
    get: await callsPerRequest(() => handlerGet(reader)),
  };
  step(`node messages, warm DynamoDB calls: POST ${calls.post}, GET ${calls.get}`);
  return calls;
}

/** POST (spread over 9 nodes, then all into one) and GET of 100 messages, over HTTP. */
export async function httpLoad(baseUrl: string, cast: MailboxCast, seconds: number) {
  const post = (duration: number, target: (client: number) => string) =>
    loadWith(baseUrl, duration, (client) => ({
      method: 'POST',
      path: nodeMsgs(target(client)),
      auth: agbot(client % BASE_AGBOTS),
      body: MESSAGE,
    }));
  const get = (duration: number) =>
    loadWith(baseUrl, duration, () => ({
      method: 'GET',
      path: nodeMsgs(senderId(0)),
      auth: cast.senders[0] as Credentials,
    }));
  step(
    `HTTP load: node messages, ${CONNECTIONS} clients, ${seconds} s per request type (after a 1 s warm-up)`,
  );
  await post(1, spreadTarget);
  const postSpread = await post(seconds, spreadTarget);
  const postOneNode = await post(seconds, () => senderId(1));
  await get(1);
  const figures = { postSpread, postOneNode, get: await get(seconds) };
  step(
    `node messages over HTTP: POST ${Math.round(postSpread.requestsPerSecond)}/s (9 nodes), ${Math.round(postOneNode.requestsPerSecond)}/s (one node), GET ${Math.round(figures.get.requestsPerSecond)}/s`,
  );
  return figures;
}
