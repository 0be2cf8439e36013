import { createPublicKey, type KeyObject } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The keys an upgrade manifest must be signed with, pinned on the device when it was installed:
 * `HZN_AGENT_UPGRADE_KEYS`, a `.pem` file or a directory of them, else `<data dir>/upgrade-keys/`.
 * Never the key the manifest's metadata carries. None: the agent refuses every upgrade.
 */
export function pinnedUpgradeKeys(dataDir: string, env: NodeJS.ProcessEnv = process.env): KeyObject[] {
  const where = env.HZN_AGENT_UPGRADE_KEYS || join(dataDir, 'upgrade-keys');
  let files: string[];
  try {
    files = statSync(where).isDirectory()
      ? readdirSync(where)
          .filter((name) => name.endsWith('.pem'))
          .sort()
          .map((name) => join(where, name))
      : [where];
  } catch {
    return [];
  }
  return files.flatMap((file) => {
    try {
      return [createPublicKey(readFileSync(file))];
    } catch {
      return []; // not a public key (or a certificate): not trusted for upgrades
    }
  });
}
