import type { Caller } from '#lib/auth/caller';
import { HttpError } from '#lib/http/errors';
import type { ChangeOperation } from '#tables/feed/changes';
import { CONFLICT, optimisticUpdate } from '#tables/kernel/optimistic-update';
import { type PatternRecord, rewritePattern } from '#tables/pattern/records';
import { authorizePattern, patternId, patternNotFound } from './access.ts';
import type { PatternPath } from './schemas.ts';

/**
 * Rewrites the pattern read by `authorize` with what `change` makes of it. When another request
 * wrote it in between, reads it again (re-checking access) and applies `change` to that, so no
 * write is lost; gives up with 409 after a few rounds.
 */
export async function updatePattern(
  caller: Caller,
  path: PatternPath,
  first: PatternRecord | undefined,
  change: (current: PatternRecord) => PatternRecord,
  operation: ChangeOperation,
): Promise<void> {
  const result = await optimisticUpdate(first, {
    write: async (current) => {
      if (!current) throw patternNotFound(path);
      return (await rewritePattern(current, change(current), operation)) === 'updated' ? 'updated' : CONFLICT;
    },
    reread: () => authorizePattern(caller, path, 'WRITE'),
  });
  if (result === CONFLICT)
    throw new HttpError(
      409,
      'already-exists',
      `pattern '${patternId(path)}' is being changed by another request; try again`,
    );
}
