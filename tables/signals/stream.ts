import { PENDING_CHANGES_PARTITION } from '#lib/feed/agbot-stream-filter';
import type { FeedRow } from '#lib/feed/visibility';

/**
 * The change rows in a batch of the table's stream (functions/signals/dispatch.ts): each record's
 * new image of a pending change row, as tables/feed/changes.ts writes it (`org`, `id`,
 * `resource`, `operation`, `public`, `byItsNode`; DynamoDB's attribute-value JSON, as the stream delivers it).
 * Anything else (the counted items the same batches carry, a record without a new image, the
 * feed's head) is left out.
 */
export interface StreamRecord {
  eventID?: string;
  eventName?: string;
  dynamodb?: {
    Keys?: { pk?: { S?: string }; sk?: { S?: string } };
    NewImage?: Record<string, AttributeValue | undefined>;
    SequenceNumber?: string;
  };
}

type AttributeValue = { S?: string; BOOL?: boolean; N?: string };

export function changesInStream(records: readonly StreamRecord[]): FeedRow[] {
  const rows: FeedRow[] = [];
  for (const record of records) {
    if (record.dynamodb?.Keys?.pk?.S !== PENDING_CHANGES_PARTITION) continue;
    const image = record.dynamodb?.NewImage;
    const [org, id, resource, operation] = ['org', 'id', 'resource', 'operation'].map(
      (name) => image?.[name]?.S,
    );
    if (org === undefined || id === undefined || resource === undefined || operation === undefined) continue;
    rows.push({
      org,
      id,
      resource,
      operation,
      public: image?.public?.BOOL === true,
      ...(image?.byItsNode?.BOOL === true ? { byItsNode: true } : {}),
    });
  }
  return rows;
}
