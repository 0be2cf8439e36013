import { CONNECTIONS, type LoadResult, loadWith } from './http-load.ts';
import { type Credentials, callsPerRequest, compare } from './in-process.ts';
import * as messages from './messages.ts';
import {
  agbotId,
  BASE_AGBOTS,
  createAgbotFor,
  type MailboxCast,
  seedMailboxes,
  WAITING,
  writeMessages,
} from './messages-seed.ts';
import { ORG } from './seed.ts';

/** The mailbox part of `npm run bench`, in three steps run.ts places around its own. */
const step = (text: string) => console.log(`[bench] ${text}`);

type MailboxCalls = { agbots: number; post: number; get: number };

/** Seeds the mailboxes; calls per request with the agbots there are now. */
export async function seedAndCount(alice: Credentials): Promise<{ cast: MailboxCast; calls: MailboxCalls }> {
  step(`seeding ${BASE_AGBOTS} agbots, ${BASE_AGBOTS} sender nodes and ${WAITING} waiting messages`);
  const cast = await seedMailboxes(alice);
  return { cast, calls: await countCalls(cast, BASE_AGBOTS) };
}

export async function countCalls(cast: MailboxCast, agbots: number): Promise<MailboxCalls> {
  const sender = cast.senders[0] as Credentials;
  const calls = {
    agbots,
    post: await callsPerRequest(() => messages.handlerPost(sender)),
    get: await callsPerRequest(() => messages.handlerGet(cast.reader)),
  };
  step(`calls per request with ${agbots} agbots: POST message ${calls.post}, GET messages ${calls.get}`);
  return calls;
}

export async function compareRaw(cast: MailboxCast) {
  const sender = cast.senders[0] as Credentials;
  const post = await compare(
    () => messages.handlerPost(sender),
    () => messages.rawPost(sender),
  );
  const get = await compare(
    () => messages.handlerGet(cast.reader),
    () => messages.rawGet(cast.reader),
  );
  step(`POST message ratio ${post.ratio.toFixed(2)}, GET messages ratio ${get.ratio.toFixed(2)}`);
  return { post, get };
}

/** POST: client i is node sender-i, all to one agbot. GET: the agbot reads its 100 messages. */
export async function httpLoad(baseUrl: string, cast: MailboxCast, seconds: number) {
  const target = `/v1/orgs/${ORG}/agbots/${messages.POST_TARGET}/msgs`;
  const post = (duration: number) =>
    loadWith(baseUrl, duration, (client) => ({
      method: 'POST',
      path: target,
      auth: cast.senders[client % cast.senders.length] as Credentials,
      body: messages.MESSAGE,
    }));
  const reader = `/v1/orgs/${ORG}/agbots/${agbotId(0)}/msgs`;
  const get = (duration: number) =>
    loadWith(baseUrl, duration, () => ({ method: 'GET', path: reader, auth: cast.reader }));
  step(`HTTP load: mailbox, ${CONNECTIONS} clients, ${seconds} s per request type (after a 1 s warm-up)`);
  await post(1);
  const postResult: LoadResult = await post(seconds);
  await get(1);
  return { post: postResult, get: await get(seconds) };
}

/** DELETE of agbots holding `count` messages each, made and filled first. */
export async function deletes(alice: Credentials, count = 1000, runs = 3) {
  const figures: messages.DeleteFigures[] = [];
  for (let run = 0; run < runs; run++) {
    const agbot = `doomed-${run}`;
    await createAgbotFor(alice, agbot);
    await writeMessages(agbot, count, 3600 * 1000);
    figures.push(await messages.timedDelete(alice, agbot, count));
  }
  step(
    `DELETE agbot with ${count} messages: ${figures.map((f) => `${Math.round(f.wallMs)} ms / ${f.calls} calls`).join(', ')}`,
  );
  return figures;
}
