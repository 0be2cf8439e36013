import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AgbotAgreement } from '#lib/agbot-store/contract';
import { localKeyProvider } from '#lib/secrets/local-key-provider';
import { dynamoAgbotStore } from '#tables/agbot-state/store';
import { dynamoCallCount } from '#tables/client';
import { type DynamoCall, dynamoUsageOf } from '#test/support/dynamo-usage';
import { useTestTable } from '#test/support/table';

useTestTable();

const provider = localKeyProvider(randomBytes(32));
const store = dynamoAgbotStore({ org: 'acme', id: 'bot' }, () => provider);

/** An agreement of the usual size: a service with two bound secrets (about 0.5 KB stored). */
const agreement = (n: number): AgbotAgreement => ({
  agreementId: `${String(n).padStart(4, '0')}${'f'.repeat(60)}`,
  nodeOrg: 'acme',
  nodeId: `node-${n}`,
  policy: 'acme/web-policy',
  service: { org: 'acme', url: 'com.example.web', version: '1.2.3', arch: 'amd64' },
  state: 'Formed Proposal',
  createdAt: 1_700_000_000_000 + n,
  updatedAt: 1_700_000_000_000 + n,
  archived: false,
  details: {
    protocolTimeoutS: 360,
    secrets: [
      { serviceSecret: 'db-password', candidates: ['web/db-password'], bindingIndex: 0 },
      { serviceSecret: 'api-token', candidates: ['web/api-token'], bindingIndex: 1 },
    ],
  },
});

/**
 * `Command read/write` per call, with the capacity DynamoDB Local reports. A call that fails (a
 * cancelled transaction) reports none: it shows as `(failed)`.
 */
async function usage(run: () => Promise<unknown>): Promise<string[]> {
  const before = dynamoCallCount();
  const calls = (await dynamoUsageOf(run)).map(
    (c: DynamoCall) => `${c.command} ${c.readUnits}/${c.writeUnits}`,
  );
  const failed = dynamoCallCount() - before - calls.length;
  return [...calls, ...Array.from({ length: failed }, () => '(failed)')];
}

/**
 * The calls and capacity units of each method of the DynamoDB agbot store, as tables/README.md
 * ("The agbot's own state") lists them: a change there fails here. DynamoDB Local reports a
 * transaction as 2 units whatever its items, 2 more when it writes or deletes an index entry (a
 * live agreement's gsi1 keys); on AWS each item of one costs 2 WCU per KB (README).
 */
describe('the DynamoDB agbot store: calls and capacity per method', () => {
  it('costs what tables/README.md says', async () => {
    const measured: Record<string, string[]> = {};
    measured.keepMessagingKey = await usage(() => store.keepMessagingKey('-----BEGIN PRIVATE KEY-----\nx'));
    measured.messagingKey = await usage(() => store.messagingKey());
    measured.feedCursor = await usage(() => store.feedCursor());
    measured.advanceFeedCursor = await usage(() => store.advanceFeedCursor(undefined, 10));
    measured['saveAgreement (live)'] = await usage(() => store.saveAgreement(agreement(1)));
    measured['saveAgreement (refused)'] = await usage(() =>
      store.saveAgreement({ ...agreement(1), agreementId: 'other' }),
    );
    measured['saveAgreement (archive)'] = await usage(() =>
      store.saveAgreement({ ...agreement(1), archived: true, terminatedReason: 200 }),
    );
    measured.getAgreement = await usage(() => store.getAgreement(agreement(1).agreementId));
    for (let n = 2; n <= 21; n++) await store.saveAgreement(agreement(n));
    const twenty = Array.from({ length: 20 }, (_, i) => agreement(i + 2));
    measured['liveAgreementNodes (20 nodes)'] = await usage(() =>
      store.liveAgreementNodes(
        'acme/web-policy',
        twenty.map((a) => `acme/${a.nodeId}`),
      ),
    );
    measured['getAgreements (20)'] = await usage(() => store.getAgreements(twenty.map((a) => a.agreementId)));
    measured['updateLiveAgreements (20)'] = await usage(() =>
      store.updateLiveAgreements(twenty.map((a) => ({ ...a, state: 'Finalized Agreement' }))),
    );
    measured['listAgreements (20 live)'] = await usage(() => store.listAgreements(false));
    measured.getSearch = await usage(() => store.getSearch('acme/web-policy'));
    measured.setSearch = await usage(() =>
      store.setSearch('acme/web-policy', { changedSince: 1, session: 'acme/bot@1', fullScanAt: 1 }),
    );
    measured.revisit = await usage(() => store.revisit('acme/web-policy', 'acme/node-1'));
    measured.revisits = await usage(() => store.revisits('acme/web-policy'));
    measured.revisited = await usage(() => store.revisited('acme/web-policy', ['acme/node-1']));
    expect(measured).toEqual({
      keepMessagingKey: ['PutItem 0/1'],
      messagingKey: ['GetItem 1/0'],
      feedCursor: ['GetItem 1/0'],
      advanceFeedCursor: ['UpdateItem 0/1'],
      'saveAgreement (live)': ['TransactWriteItems 0/4'],
      'saveAgreement (refused)': ['(failed)'],
      'saveAgreement (archive)': ['TransactWriteItems 0/4'],
      getAgreement: ['BatchGetItem 1/0'],
      'liveAgreementNodes (20 nodes)': ['BatchGetItem 20/0'],
      'getAgreements (20)': ['BatchGetItem 20/0'],
      'updateLiveAgreements (20)': ['TransactWriteItems 0/2'],
      'listAgreements (20 live)': ['Query 4/0'],
      getSearch: ['GetItem 1/0'],
      setSearch: ['PutItem 0/1'],
      revisit: ['PutItem 0/1'],
      revisits: ['Query 1/0'],
      revisited: ['BatchWriteItem 0/1'],
    });
  });
});
