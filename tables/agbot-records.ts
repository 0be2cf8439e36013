import type { FormattedItem } from 'dynamodb-toolbox';
import { type AgbotEntity, agbotRepository } from './agbots.ts';

export type AgbotRecord = FormattedItem<typeof AgbotEntity>;

/** Consistent, so a write's own check (and a client's read after its write) sees the latest. */
export async function getAgbot(org: string, id: string): Promise<AgbotRecord | undefined> {
  const { Item } = await agbotRepository.get({ org, id }, { consistent: true });
  return Item;
}
