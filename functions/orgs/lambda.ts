import { handler as confirmAgreement } from '#functions/agbot-agreements/confirm-agreement';
import { dispatcher } from '#functions/dispatch';
import { handler as deleteOrg } from './delete-org.ts';
import { handler as getOrg } from './get-org.ts';
import { handler as getOrgs } from './get-orgs.ts';
import { handler as patchOrg } from './patch-org.ts';
import { handler as postOrg } from './post-org.ts';
import { handler as putOrg } from './put-org.ts';
import { orgsRoutes } from './routes.ts';

/** The organizations family's one Lambda: routes each request to its endpoint's handler (routes.ts). */
export const handler = dispatcher(orgsRoutes, {
  'orgs/get-orgs': getOrgs,
  'orgs/get-org': getOrg,
  'orgs/post-org': postOrg,
  'orgs/put-org': putOrg,
  'orgs/patch-org': patchOrg,
  'orgs/delete-org': deleteOrg,
  'agbot-agreements/confirm-agreement': confirmAgreement,
});
