import { describe, expect, it } from 'vitest';
import { BUILT_IN_AGBOT } from '#lib/agbot/built-in';
import {
  agbotStreamPatterns,
  matchesStreamPatterns,
  PENDING_CHANGES_PARTITION,
} from '#lib/feed/agbot-stream-filter';
import { feedKeys } from '#tables/feed/keys';

/**
 * The stream filter of the in-stack agbot (lib/feed/agbot-stream-filter.ts): the same patterns
 * filter the stack's event source mapping and the local stream reader, so this tests both.
 */
const patterns = agbotStreamPatterns(BUILT_IN_AGBOT);

/** A stream record as DynamoDB (and DynamoDB Local) writes it for a new pending change row. */
const pendingRow = (
  row: { resource: string; org?: string; id?: string; operation?: string },
  eventName = 'INSERT',
) => ({
  eventName,
  dynamodb: {
    Keys: { pk: { S: PENDING_CHANGES_PARTITION }, sk: { S: '2025-01-01T00:00:00.000Z#x#000' } },
    NewImage: {
      pk: { S: PENDING_CHANGES_PARTITION },
      resource: { S: row.resource },
      org: { S: row.org ?? 'acme' },
      id: { S: row.id ?? 'thing' },
      operation: { S: row.operation ?? 'created/modified' },
      public: { BOOL: false },
    },
  },
});

const wakes = (record: unknown) => matchesStreamPatterns(patterns, record);

describe("the in-stack agbot's stream filter", () => {
  it("names the change feed's pending partition (tables/keys/feed.ts)", () => {
    expect(PENDING_CHANGES_PARTITION).toBe(feedKeys.pendingPartition);
  });

  it.each(['org', 'policy', 'pattern', 'node', 'nodepolicies', 'service', 'servicepolicies', 'secret'])(
    'wakes the agbot on a new %s row of any org',
    (resource) => {
      expect(wakes(pendingRow({ resource }))).toBe(true);
    },
  );

  it('wakes it on a deleted node agreement only (a node that cancelled)', () => {
    expect(wakes(pendingRow({ resource: 'nodeagreements', operation: 'deleted' }))).toBe(true);
    expect(wakes(pendingRow({ resource: 'nodeagreements' }))).toBe(false);
  });

  it('wakes it on its own mailbox and served rows, not on another agbot’s', () => {
    for (const resource of ['agbotmsgs', 'agbotbusinesspols', 'agbotpatterns']) {
      expect(wakes(pendingRow({ resource, org: 'IBM', id: 'agbot' })), resource).toBe(true);
      expect(wakes(pendingRow({ resource, org: 'IBM', id: 'other' })), resource).toBe(false);
      expect(wakes(pendingRow({ resource, org: 'acme', id: 'agbot' })), resource).toBe(false);
    }
  });

  it('ignores its own writes (agreements, record), statuses, node mailboxes and heartbeat-like rows', () => {
    for (const resource of [
      'agbotagreements',
      'agbot',
      'nodemsgs',
      'nodestatus',
      'nodeerrors',
      'agentfileversion',
    ]) {
      expect(wakes(pendingRow({ resource, org: 'IBM', id: 'agbot' })), resource).toBe(false);
    }
  });

  it('ignores anything but a new pending row: numbered rows, the head, changes and removals', () => {
    expect(wakes(pendingRow({ resource: 'policy' }, 'MODIFY'))).toBe(false);
    expect(wakes(pendingRow({ resource: 'policy' }, 'REMOVE'))).toBe(false);
    const numbered = pendingRow({ resource: 'policy' });
    numbered.dynamodb.Keys.pk.S = 'ALLCHANGES';
    expect(wakes(numbered)).toBe(false);
    expect(
      wakes({
        eventName: 'INSERT',
        dynamodb: { Keys: { pk: { S: PENDING_CHANGES_PARTITION } }, NewImage: {} },
      }),
    ).toBe(false);
  });
});
