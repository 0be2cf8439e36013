import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgbotStore } from '../store.ts';

/**
 * The in-stack agbot's store, made in this one place.
 *
 * TODO(agbot-store): switch to the DynamoDB store (the agbot's partition of the Exchange's table:
 * agreements, cursor, searches, the sealed messaging key). Until then this is the standalone
 * program's SQLite store in a folder of the instance: under the Lambda's tmp dir, or
 * `EXCHANGE_AGBOT_STATE_DIR` (npm start puts it in its data dir). On AWS that state lives only as
 * long as the instance, which the DynamoDB store fixes.
 */
export function openRoundStore(agbot: { org: string; id: string }): AgbotStore {
  const table = process.env.EXCHANGE_TABLE ?? 'exchange';
  const base = process.env.EXCHANGE_AGBOT_STATE_DIR || join(tmpdir(), 'agbot-state');
  return AgbotStore.open(join(base, `${table}-${agbot.org}-${agbot.id}`));
}
