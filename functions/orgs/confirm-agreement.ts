import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { accessDenied, notFound } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { type AgreementRecord, findAgreementsById } from '#tables/agbot/agreement-records';
import { orgsRoutes } from './routes.ts';

/** An agbot confirms for itself and its owner's other agbots; a user for the agbots it owns. */
const confirmableBy = (caller: Caller) => (agreement: AgreementRecord) =>
  caller.kind === 'agbot'
    ? `${agreement.org}/${agreement.agbot}` === caller.fullId || agreement.owner === caller.owner
    : agreement.owner === caller.fullId;

/**
 * POST /v1/orgs/{organization}/agreements/confirm: users and agbots of the org, hub admins, root
 * (nodes: 403). 201 when an active agreement with that id belongs to an agbot of the caller's
 * owner; `{organization}` only decides who may ask, as upstream. One Query of gsi1.
 */
export const handler = endpoint(orgsRoutes.operations.confirmAgreement, {
  authorize({ caller, path }) {
    authorize(caller, { type: 'agbot', org: path.organization, id: '#', exists: true }, 'READ');
    if (caller.kind === 'node') throw accessDenied('access denied');
  },
  async handle({ caller, body }) {
    const found = await findAgreementsById(body.agreementId);
    const active = found.filter((agreement) => agreement.state !== '').some(confirmableBy(caller));
    if (!active) throw notFound('agreement not found or not active');
    return ok('agreement active');
  },
});
