import { dispatcher } from '#functions/dispatch';
import { handler as deleteAgbotPolicies } from './delete-policies.ts';
import { handler as deleteAgbotPolicy } from './delete-policy.ts';
import { handler as getAgbotPolicy } from './get-policy.ts';
import { handler as listAgbotPolicies } from './list-policies.ts';
import { handler as postAgbotPolicy } from './post-policy.ts';
import { agbotPoliciesRoutes } from './routes.ts';

/** The agbot deployment policies family's one Lambda: routes each request to its endpoint's handler (routes.ts). */
export const handler = dispatcher(agbotPoliciesRoutes, {
  'agbot-policies/list-policies': listAgbotPolicies,
  'agbot-policies/post-policy': postAgbotPolicy,
  'agbot-policies/delete-policies': deleteAgbotPolicies,
  'agbot-policies/get-policy': getAgbotPolicy,
  'agbot-policies/delete-policy': deleteAgbotPolicy,
});
