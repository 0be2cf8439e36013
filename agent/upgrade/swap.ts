import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { chmod, copyFile, link, rename, rm } from 'node:fs/promises';
import { StageFailure } from './failure.ts';

/** The executable, the previous one kept beside it, and the new one staged beside it (one directory: renames are atomic). */
export const swapPaths = (executable: string) => ({
  executable,
  previous: `${executable}.previous`,
  staged: `${executable}.new`,
});

export const sha256Of = async (path: string): Promise<string> => {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
};

/**
 * Swaps a verified file in for `executable`: copied beside it and hashed again there (the copy is
 * what runs), the running one kept as `.previous` (a hard link: the same file, never a moment
 * without an executable), then the new one renamed over it (atomic). A failure before the rename
 * leaves the executable as it was.
 */
export async function swapIn(downloaded: string, sha256: string, executable: string): Promise<void> {
  const paths = swapPaths(executable);
  await rm(paths.staged, { force: true });
  await copyFile(downloaded, paths.staged);
  if ((await sha256Of(paths.staged)) !== sha256) {
    await rm(paths.staged, { force: true });
    throw new StageFailure('failed', `the copy beside ${executable} does not match the manifest's SHA-256`);
  }
  await chmod(paths.staged, 0o755);
  await rm(paths.previous, { force: true });
  await link(executable, paths.previous);
  await rename(paths.staged, executable);
}

/** Puts the kept executable back (atomic rename); false when there is none. */
export async function restorePrevious(executable: string): Promise<boolean> {
  const paths = swapPaths(executable);
  try {
    await rename(paths.previous, executable);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}
