import type { AttributeValue, KeySchemaElement, Projection } from '@aws-sdk/client-dynamodb';

/**
 * The backup file (docs/operations.md, "Back up and restore"): gzip of JSON lines, the manifest
 * first, then one item a line in DynamoDB's JSON (`{"pk":{"S":"ORG#acme"},…}`, binary values in
 * base64, as the AWS CLI writes them): every attribute as stored, secrets still sealed.
 */
export const FORMAT = 'open-exchange-backup';
export const FORMAT_VERSION = 1;

export type Item = Record<string, AttributeValue>;

export interface Manifest {
  format: typeof FORMAT;
  version: typeof FORMAT_VERSION;
  /** When the scan started and ended (ISO 8601). */
  startedAt: string;
  finishedAt: string;
  /** Where it was read from: the table and the DynamoDB it lives in. */
  source: { table: string; where: string };
  keySchema: KeySchemaElement[];
  attributes: { AttributeName?: string; AttributeType?: string }[];
  indexes: { name: string; keySchema: KeySchemaElement[]; projection: Projection }[];
  items: number;
  /** Items by kind: the partition key's prefix and the sort key's (`NODE NODE`, `ORG STATS`, …). */
  kinds: Record<string, number>;
  /**
   * The keys the sealed values need to open (their `keyId`: a KMS key ARN on AWS, the local
   * master key's fingerprint locally), with how many values each sealed. Restore the items where
   * that key can be used, or re-seal them (npm run rotate-secrets-key) first.
   */
  secretKeys: Record<string, number>;
  /**
   * The key the hub seals with, as configured where it runs: the stage's KMS key alias on AWS
   * (`alias/<table>-secrets`, serverless.yml), the local master key file locally.
   */
  secretsKey: string;
}

/**
 * What an item is, by its keys: the partition key's prefix and the sort key's leading upper-case
 * word (`NODE#acme/n1` + `AGREEMENT#a1` → `NODE AGREEMENT`), or the prefix alone when the sort key
 * is data (a change row's time: `PENDINGCHANGES`).
 */
export function kindOf(item: Item): string {
  const pk = (item.pk?.S ?? '?').split(/[#/]/)[0];
  const sk = /^[A-Z][A-Z0-9_]*/.exec(item.sk?.S ?? '')?.[0];
  return sk ? `${pk} ${sk}` : `${pk}`;
}

/** The key ids of an item's sealed values (maps with a data key, a key id and a ciphertext). */
export function sealedKeyIds(item: Item): string[] {
  const found: string[] = [];
  const visit = (value: AttributeValue): void => {
    if (value.M) {
      const { keyId, dataKey, ciphertext } = value.M;
      if (keyId?.S && dataKey?.S && ciphertext?.S) found.push(keyId.S);
      else for (const inner of Object.values(value.M)) visit(inner);
    } else if (value.L) for (const inner of value.L) visit(inner);
  };
  for (const value of Object.values(item)) visit(value);
  return found;
}

/** An item as a line: binary values (B, BS) in base64. */
export function itemToLine(item: Item): string {
  return JSON.stringify(item, (_key, value) =>
    value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value,
  );
}

/** A line back to an item, binary values decoded. */
export function lineToItem(line: string): Item {
  return decode(JSON.parse(line)) as Item;
}

function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'B' && typeof inner === 'string') out.B = Buffer.from(inner, 'base64');
    else if (key === 'BS' && Array.isArray(inner))
      out.BS = inner.map((b: string) => Buffer.from(b, 'base64'));
    else out[key] = decode(inner);
  }
  return out;
}
