import { beforeAll, describe, expect, it } from 'vitest';
import { handler as postAgbotMessage } from '#functions/agbot-messages/post-message';
import { handler as postNodeMessage } from '#functions/node-messages/post-message';
import { getConfig } from '#lib/config';
import { listMessages } from '#tables/agbot/message-records';
import { listNodeMessages } from '#tables/node/message-records';
import { createAgbot, createNode, createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useStreamCounts } from '#test/support/stream-counts';
import { useTestTable } from '#test/support/table';
import { createSender } from '../agbot-messages/fixtures.ts';
import { changeRows, createSendingAgbot } from './fixtures.ts';

/**
 * Fifty concurrent writers on DynamoDB Local: what is asserted is the outcome, not the time (a busy
 * machine takes minutes, so each handler is given as long as the test rather than a request's 30 s).
 */
const RACE_TIMEOUT_MS = 180_000;

useTestTable();
// The org counters of messages and agreements move from the table's stream (tables/org/stream-counts.ts).
const { orgCounts } = useStreamCounts();

const RACERS = 50;
const LIMIT = 10;
type Auth = { user: string; secret: string };
let agbots: Auth[];
let nodes: Auth[];
const limited = () => {
  const config = getConfig();
  return { ...config, limits: { ...config.limits, maxMessagesInMailbox: LIMIT } };
};
const insertedId = (msg: string) => Number(/^(?:node|agbot) msg (\d+) inserted$/.exec(msg)?.[1]);
const ascending = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

beforeAll(async () => {
  await createOrg('race');
  await createUser('race', 'alice');
  agbots = await Promise.all(
    Array.from({ length: RACERS }, (_, i) => createSendingAgbot('race', `a${i}`, 'race/alice')),
  );
  nodes = await Promise.all(
    Array.from({ length: RACERS }, (_, i) => createSender('race', `n${i}`, 'race/alice')),
  );
  await createNode('race', 'target', 'race/alice');
  await createNode('race', 'small', 'race/alice');
  await createAgbot('race', 'small-agbot', 'race/alice');
});

describe(`${RACERS} agbots posting to one node at the same time`, () => {
  it(
    'stores every message once under ids 1..50, none lost, each with its change row',
    async () => {
      const results = await Promise.all(
        agbots.map((auth) =>
          invoke(postNodeMessage, {
            auth,
            path: { organization: 'race', node: 'target' },
            body: { message: `from ${auth.user}`, ttl: 3600 },
            remainingMs: RACE_TIMEOUT_MS,
          }),
        ),
      );
      expect(results.filter((r) => r.status !== 201).map((r) => JSON.stringify(r.body))).toEqual([]);
      expect(results.map((result) => result.status)).toEqual(Array(RACERS).fill(201));
      const answered = results.map((result) => insertedId(result.body.msg));
      expect([...answered].sort((a, b) => a - b)).toEqual(ascending(RACERS));
      const stored = await listNodeMessages('race', 'target');
      expect(stored.map((message) => message.msgId)).toEqual(ascending(RACERS));
      agbots.forEach((auth, i) => {
        expect(stored.find((message) => message.agbotId === auth.user)).toMatchObject({
          msgId: answered[i],
          message: `from ${auth.user}`,
        });
      });
      const rows = (await changeRows('race')).filter((row) => row.resource === 'nodemsgs');
      expect(rows).toHaveLength(RACERS);
      expect(new Set(rows.map((row) => row.id))).toEqual(new Set(['target']));
      expect((await orgCounts('race')).nodeMsgs).toBe(RACERS);
    },
    RACE_TIMEOUT_MS,
  );

  it(
    `with a mailbox limit of ${LIMIT}: exactly ${LIMIT} stored, every other post a 502`,
    async () => {
      const results = await Promise.all(
        agbots.map((auth) =>
          invoke(postNodeMessage.withDeps({ config: limited }), {
            auth,
            path: { organization: 'race', node: 'small' },
            body: { message: 'm', ttl: 3600 },
            remainingMs: RACE_TIMEOUT_MS,
          }),
        ),
      );
      const statuses = results.map((result) => result.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(LIMIT);
      expect(statuses.filter((status) => status === 502)).toHaveLength(RACERS - LIMIT);
      expect((await listNodeMessages('race', 'small')).map((message) => message.msgId)).toEqual(
        ascending(LIMIT),
      );
    },
    RACE_TIMEOUT_MS,
  );
});

describe(`${RACERS} nodes posting to one agbot with a mailbox limit of ${LIMIT}`, () => {
  it(
    `stores exactly ${LIMIT}, under ids 1..${LIMIT}; every other post is a 502`,
    async () => {
      const results = await Promise.all(
        nodes.map((auth) =>
          invoke(postAgbotMessage.withDeps({ config: limited }), {
            auth,
            path: { organization: 'race', agreementbot: 'small-agbot' },
            body: { message: 'm', ttl: 3600 },
            remainingMs: RACE_TIMEOUT_MS,
          }),
        ),
      );
      const statuses = results.map((result) => result.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(LIMIT);
      expect(statuses.filter((status) => status === 502)).toHaveLength(RACERS - LIMIT);
      expect((await listMessages('race', 'small-agbot')).map((message) => message.msgId)).toEqual(
        ascending(LIMIT),
      );
      const rows = (await changeRows('race')).filter((row) => row.resource === 'agbotmsgs');
      expect(rows).toEqual(
        Array(LIMIT).fill({ resource: 'agbotmsgs', id: 'small-agbot', operation: 'created' }),
      );
    },
    RACE_TIMEOUT_MS,
  );
});
