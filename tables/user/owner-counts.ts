import { tableName } from '../client.ts';
import type { TransactItem } from '../kernel/transact.ts';
import { type OwnedKind, splitOwner, userKeys } from '../keys/user.ts';

/**
 * Per-owner limits (docs/exchange-catalog.md#responses-and-limits: services, patterns, deployment policies per user,
 * counted across orgs) as a counter item beside the owner, moved in the same transaction as the
 * record: a positive step is refused by its condition at `max` (0 = unlimited), so racing creates
 * cannot pass the limit.
 */
export function ownerCountUpdate(kind: OwnedKind, owner: string, step: number, max = 0): TransactItem {
  const [ownerOrg, username] = splitOwner(owner);
  const limited = step > 0 && max > 0;
  return {
    Update: {
      TableName: tableName(),
      Key: userKeys.ownedCount(kind, ownerOrg, username),
      UpdateExpression: 'ADD #count :step',
      ConditionExpression: limited ? 'attribute_not_exists(#count) OR #count <= :below' : undefined,
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':step': step, ...(limited ? { ':below': max - step } : {}) },
    },
  };
}

/** The count moves of an owner change (PUT that takes ownership): off the old owner, onto the new. */
export const ownerChange = (kind: OwnedKind, from: string, to: string): TransactItem[] =>
  from === to ? [] : [ownerCountUpdate(kind, from, -1), ownerCountUpdate(kind, to, 1)];
