import { existsSync, renameSync } from 'node:fs';
import { loadOrCreateMasterKey, localKeyProvider } from '#lib/secrets/local-key-provider';
import { resealAllSecrets } from '#tables/secret/rotation';

/**
 * Rotates the local master key in `file`: a new key is generated into `<file>.next` (0600; reused
 * if a previous run stopped half way), every secret is re-sealed under it, then the old key is
 * kept as `<file>.retired-<time>` and the new one takes its name. Run it with the Exchange stopped:
 * a secret written meanwhile under the old key would be unreadable after the swap.
 */
export async function rotateMasterKey(file: string, now = new Date()) {
  if (!existsSync(file)) throw new Error(`${file}: no master key to rotate`);
  const next = `${file}.next`;
  const from = localKeyProvider(loadOrCreateMasterKey(file));
  const to = localKeyProvider(loadOrCreateMasterKey(next));
  const result = await resealAllSecrets(from, to);
  if (result.unreadable.length > 0) return { ...result, swapped: false, retired: undefined };
  const retired = `${file}.retired-${now.toISOString().replace(/[:.]/g, '-')}`;
  renameSync(file, retired);
  renameSync(next, file);
  return { ...result, swapped: true, retired };
}
