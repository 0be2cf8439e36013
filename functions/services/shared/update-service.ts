import type { Caller } from '#lib/auth/caller';
import { HttpError } from '#lib/http/errors';
import type { ChangeOperation } from '#tables/feed/changes';
import { CONFLICT, optimisticUpdate } from '#tables/kernel/optimistic-update';
import { rewriteService, type ServiceRecord } from '#tables/service/records';
import { authorizeService, resourceId, serviceNotFound } from './access.ts';
import type { ServicePath } from './schemas.ts';

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
  const result = await optimisticUpdate(first, {
    write: async (current) => {
      if (!current) throw serviceNotFound(path);
      return (await rewriteService(current, change(current), operation)) === 'updated' ? 'updated' : CONFLICT;
    },
    reread: () => authorizeService(caller, path, 'WRITE'),
  });
  if (result === CONFLICT)
    throw new HttpError(
      409,
      'already-exists',
      `service '${resourceId(path)}' is being changed by another request; try again`,
    );
}
