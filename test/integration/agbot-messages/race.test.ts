import { beforeAll, describe, expect, it } from 'vitest';
import { handler as listMessages } from '#functions/agbot-messages/list-messages';
import { handler as postMessage } from '#functions/agbot-messages/post-message';
import { listMessages as storedMessages } from '#tables/agbot/message-records';
import { createAgbot, createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useStreamCounts } from '#test/support/stream-counts';
import { useTestTable } from '#test/support/table';
import { createSender } from './fixtures.ts';

/** Fifty concurrent writers on DynamoDB Local: what is asserted is the outcome, not the time (a busy machine takes minutes). */
const RACE_TIMEOUT_MS = 180_000;

useTestTable();
// The org counters of messages and agreements move from the table's stream (tables/org/stream-counts.ts).
const { orgCounts } = useStreamCounts();

const NODES = 50;
type Auth = { user: string; secret: string };
let agbot: Auth;
let nodes: Auth[];

beforeAll(async () => {
  await createOrg('acme');
  await createUser('acme', 'alice');
  agbot = await createAgbot('acme', 'a1', 'acme/alice');
  nodes = await Promise.all(
    Array.from({ length: NODES }, (_, i) => createSender('acme', `n${i}`, 'acme/alice')),
  );
});

describe('50 nodes posting to one agbot at the same time', () => {
  it(
    'stores every message once, under unique ids 1..50, none lost, returned in id order and counted',
    async () => {
      const path = { organization: 'acme', agreementbot: 'a1' };
      const results = await Promise.all(
        nodes.map((auth) =>
          invoke(postMessage, {
            auth,
            path,
            body: { message: `from ${auth.user}`, ttl: 3600 },
            remainingMs: RACE_TIMEOUT_MS,
          }),
        ),
      );
      expect(results.map((result) => result.status)).toEqual(Array(NODES).fill(201));
      const answered = results.map((result) =>
        Number(/^agbot msg (\d+) inserted$/.exec(result.body.msg)?.[1]),
      );
      const expected = Array.from({ length: NODES }, (_, i) => i + 1);
      expect([...answered].sort((a, b) => a - b)).toEqual(expected);

      const stored = await storedMessages('acme', 'a1');
      expect(stored.map((message) => message.msgId)).toEqual(expected);
      // Each node's message under the id it was told, exactly once.
      const byNode = new Map(stored.map((message) => [message.nodeId, message]));
      expect(byNode.size).toBe(NODES);
      nodes.forEach((auth, i) => {
        expect(byNode.get(auth.user)).toMatchObject({ msgId: answered[i], message: `from ${auth.user}` });
      });

      const read = await invoke(listMessages, { auth: agbot, path });
      expect(read.body.messages.map((message: { msgId: number }) => message.msgId)).toEqual(expected);
      expect((await orgCounts('acme')).agbotMsgs).toBe(NODES);
    },
    RACE_TIMEOUT_MS,
  );
});
