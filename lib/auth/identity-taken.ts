import { alreadyExists, type HttpError } from '#lib/http/errors';
import type { PrincipalKind } from '#tables/identity/principals';
import type { TakenOutcome } from '#tables/identity/records';

export { isTaken } from '#tables/identity/records';

/**
 * 409 for a create of a user, node or agbot whose `org/id` is already another kind's identity:
 * authentication would resolve one of them only (node > agbot > user), so the other would be
 * locked out. Names the identity and its kind, so the caller knows what to rename.
 */
export function identityTaken(
  org: string,
  id: string,
  creating: PrincipalKind,
  outcome: TakenOutcome,
): HttpError {
  const kind = outcome.slice('taken-by-'.length);
  const article = kind === 'agbot' ? 'an' : 'a';
  return alreadyExists(
    `${creating} '${org}/${id}' not created: '${org}/${id}' is already ${article} ${kind}`,
  );
}
