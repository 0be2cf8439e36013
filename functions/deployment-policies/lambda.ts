import { dispatcher } from '#functions/dispatch';
import { handler as deletePolicy } from './delete-policy.ts';
import { handler as getPolicy } from './get-policy.ts';
import { handler as listPolicies } from './list-policies.ts';
import { handler as patchPolicy } from './patch-policy.ts';
import { handler as postPolicy } from './post-policy.ts';
import { handler as putPolicy } from './put-policy.ts';
import { deploymentPoliciesRoutes } from './routes.ts';
import { handler as searchPolicy } from './search-policy.ts';

/** The deployment policies family's one Lambda: routes each request to its endpoint's handler (routes.ts). */
export const handler = dispatcher(deploymentPoliciesRoutes, {
  'deployment-policies/list-policies': listPolicies,
  'deployment-policies/get-policy': getPolicy,
  'deployment-policies/post-policy': postPolicy,
  'deployment-policies/put-policy': putPolicy,
  'deployment-policies/patch-policy': patchPolicy,
  'deployment-policies/delete-policy': deletePolicy,
  'deployment-policies/search-policy': searchPolicy,
});
