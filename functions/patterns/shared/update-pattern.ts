import type { Caller } from '#lib/auth/caller';
import { HttpError } from '#lib/http/errors';
import type { ChangeOperation } from '#tables/changes';
import { type PatternRecord, rewritePattern } from '#tables/pattern-records';
import { authorizePattern, patternId, patternNotFound } from './access.ts';
import type { PatternPath } from './schemas.ts';

const ATTEMPTS = 6;
const pause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));

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
  let current = first;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    if (!current) throw patternNotFound(path);
    if ((await rewritePattern(current, change(current), operation)) === 'updated') return;
    await pause(attempt);
    current = await authorizePattern(caller, path, 'WRITE');
  }
  throw new HttpError(
    409,
    'already-exists',
    `pattern '${patternId(path)}' is being changed by another request; try again`,
  );
}
