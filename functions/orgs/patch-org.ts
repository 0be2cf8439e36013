import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { badInput, notFound } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { type OrgPatch, patchOrg } from '#tables/org/records';
import { orgsRoutes } from './routes.ts';
import { checkOrgLimits } from './shared/org-body.ts';
import type { orgPatchBody } from './shared/schemas.ts';

type PatchBody = ReturnType<typeof orgPatchBody.parse>;

/** Upstream applies the first attribute present in this order and ignores the rest. */
function firstAttribute(body: PatchBody): OrgPatch | undefined {
  if (body.orgType != null) return { attribute: 'orgType', value: body.orgType };
  if (body.label != null) return { attribute: 'label', value: body.label };
  if (body.description != null) return { attribute: 'description', value: body.description };
  if (body.heartbeatIntervals != null)
    return { attribute: 'heartbeatIntervals', value: body.heartbeatIntervals };
  if (body.tags != null) {
    const tags = Object.entries(body.tags).filter((entry): entry is [string, string] => entry[1] !== null);
    return { attribute: 'tags', value: Object.fromEntries(tags) };
  }
  if (body.limits != null) return { attribute: 'limits', value: body.limits };
  return undefined;
}

/** PATCH /v1/orgs/{organization}: one attribute of an existing org. Body parsed before authorization. */
export const handler = endpoint(orgsRoutes.operations.patchOrg, {
  async handle({ caller, path, body, deps }) {
    const org = path.organization;
    authorize(caller, { type: 'org', org }, body.orgType === 'IBM' ? 'SET_IBM_ORG_TYPE' : 'WRITE');
    checkOrgLimits(body.limits, deps.config().limits.maxNodes);
    const patch = firstAttribute(body);
    if (!patch) throw badInput('no valid org attribute specified');
    if (!(await patchOrg(org, patch, isoTimestamp(deps.clock)))) throw notFound(`org '${org}' not found`);
    return ok(`attribute '${patch.attribute}' of org '${org}' updated`);
  },
});
