import type { Caller } from '#lib/auth/caller';
import { HttpError } from '#lib/http/errors';
import type { ChangeOperation } from '#tables/changes';
import { rewriteService, type ServiceRecord } from '#tables/service-records';
import { authorizeService, resourceId, serviceNotFound } from './access.ts';
import type { ServicePath } from './schemas.ts';

const ATTEMPTS = 6;
const pause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));

/**
 * Rewrites the service read by `authorize` with what `change` makes of it. When another request
 * wrote it in between, reads it again (re-checking access) and applies `change` to that, so no
 * write is lost; gives up with 409 after a few rounds.
 */
export async function updateService(
  caller: Caller,
  path: ServicePath,
  first: ServiceRecord | undefined,
  change: (current: ServiceRecord) => ServiceRecord,
  operation: ChangeOperation,
): Promise<void> {
  let current = first;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    if (!current) throw serviceNotFound(path);
    if ((await rewriteService(current, change(current), operation)) === 'updated') return;
    await pause(attempt);
    current = await authorizeService(caller, path, 'WRITE');
  }
  throw new HttpError(
    409,
    'already-exists',
    `service '${resourceId(path)}' is being changed by another request; try again`,
  );
}
