import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '#lib/json-logger';
import { createAgbot as createAgbotRecord } from '#test/support/identities';
import { type Agbot, createAgbot } from '../../../agbot/agbot.ts';
import { loadAgbotConfig } from '../../../agbot/config.ts';

/**
 * A multi-tenant `IBM/<id>` agbot serving every org (`HZN_AGBOT_SERVE_ALL`), as `npm start` runs
 * one, polling every 0.3 s against `baseUrl`; its record is created by root. `stop` also removes
 * its data dir.
 */
export async function startServeAllAgbot(
  baseUrl: string,
  id: string,
  log: Logger,
): Promise<{ agbot: Agbot; stop(): Promise<void> }> {
  const token = `${id}-token`;
  await createAgbotRecord('IBM', id, 'root/root', { token });
  const dir = mkdtempSync(join(tmpdir(), `agbot-${id}-`));
  const config = loadAgbotConfig({
    HZN_EXCHANGE_URL: `${baseUrl}/v1`,
    HZN_AGBOT_ID: `IBM/${id}`,
    HZN_AGBOT_TOKEN: token,
    HZN_AGBOT_DATA_DIR: dir,
    HZN_AGBOT_POLL_SECONDS: '0.3',
    HZN_AGBOT_PORT: '0',
    HZN_AGBOT_SERVE_ALL: 'true',
  });
  const agbot = createAgbot({ config, log });
  await agbot.start();
  return {
    agbot,
    stop: async () => {
      await agbot.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
