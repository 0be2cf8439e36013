import type { FeedRow } from '#lib/feed/visibility';

/**
 * The change rows in a batch of the table's stream (functions/signals/dispatch.ts): each record's
 * new image of a pending change row, as tables/feed/changes.ts writes it (`org`, `id`,
 * `resource`, `operation`, `public`; DynamoDB's attribute-value JSON, as the stream delivers it).
 * Anything else (a record without a new image, the feed's head) is left out.
 */
export interface StreamRecord {
  eventName?: string;
  dynamodb?: { NewImage?: Record<string, AttributeValue | undefined> };
}

type AttributeValue = { S?: string; BOOL?: boolean; N?: string };

export function changesInStream(records: readonly StreamRecord[]): FeedRow[] {
  const rows: FeedRow[] = [];
  for (const record of records) {
    const image = record.dynamodb?.NewImage;
    const [org, id, resource, operation] = ['org', 'id', 'resource', 'operation'].map(
      (name) => image?.[name]?.S,
    );
    if (org === undefined || id === undefined || resource === undefined || operation === undefined) continue;
    rows.push({ org, id, resource, operation, public: image?.public?.BOOL === true });
  }
  return rows;
}
