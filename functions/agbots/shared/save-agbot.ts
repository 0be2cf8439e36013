import { hashCredential } from '#lib/auth/authenticate';
import { type Caller, IBM_ORG, isUserType } from '#lib/auth/caller';
import { identityTaken, isTaken } from '#lib/auth/identity-taken';
import { accessDenied, HttpError, notFound } from '#lib/http/errors';
import { type AgbotRecord, createAgbot, updateAgbot } from '#tables/agbot/records';
import { type AgbotPath, agbotId, agbotNotFound, authorizeAgbot } from './access.ts';
import { mayManageMultiTenant } from './entitlement.ts';
import type { PutAgbotBody } from './schemas.ts';

/** PUT /orgs/{org}/agbots/{agbot} once the body parsed: update, or create owned by the calling user. */
interface SaveAgbot {
  caller: Caller;
  path: AgbotPath;
  body: PutAgbotBody;
  /** lastHeartbeat to store. */
  now: string;
  maxAgbots: number;
}

const ATTEMPTS = 4;

/**
 * Updates the agbot read by `authorize` (`first`), or creates it when there was none. When another
 * request created, deleted or re-created it in between, reads it again, re-checks access (a user
 * who lost a race to create it may not write someone else's agbot) and tries once more.
 */
export async function saveAgbot(request: SaveAgbot, first: AgbotRecord | undefined): Promise<void> {
  const { caller, path, body } = request;
  const changes = {
    tokenHash: await hashCredential(body.token),
    name: body.name,
    publicKey: body.publicKey,
    msgEndPoint: body.msgEndPoint ?? '',
    lastHeartbeat: request.now,
  };
  let agbot = first;
  for (let attempt = 1; ; attempt++) {
    if (agbot) {
      // The owner stays: upstream hands an agbot to whichever admin PUTs it, which we do not.
      if (await updateAgbot(path.organization, path.agreementbot, agbot.owner, changes, 'created/modified'))
        return;
    } else {
      // Only users create agbots; an agbot calling here was deleted after it authenticated.
      if (!isUserType(caller)) throw agbotNotFound(path);
      if (path.organization === IBM_ORG && !mayManageMultiTenant(caller))
        throw accessDenied(
          `Access denied: only root and hub admins create multi-tenant agbots (org ${IBM_ORG}); '${caller.fullId}' may not`,
        );
      const record = { ...changes, org: path.organization, id: path.agreementbot, owner: caller.fullId };
      const outcome = await createAgbot({ ...record, agreementCount: 0 }, request.maxAgbots);
      if (outcome === 'created') return;
      if (isTaken(outcome)) throw identityTaken(path.organization, path.agreementbot, 'agbot', outcome);
      if (outcome === 'no-org') throw notFound(`org '${path.organization}' not found`);
      if (outcome === 'limit')
        throw accessDenied(`Access Denied: you are over the limit of ${request.maxAgbots} agbots`);
    }
    if (attempt >= ATTEMPTS) {
      throw new HttpError(
        409,
        'already-exists',
        `agbot '${agbotId(path)}' is being changed by another request; try again`,
      );
    }
    agbot = await authorizeAgbot(caller, path, 'WRITE');
  }
}
