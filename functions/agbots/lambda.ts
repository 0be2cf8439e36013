import { handler as deleteAgbotPattern } from '#functions/agbot-patterns/delete-pattern';
import { handler as deleteAgbotPatterns } from '#functions/agbot-patterns/delete-patterns';
import { handler as getAgbotPattern } from '#functions/agbot-patterns/get-pattern';
import { handler as listAgbotPatterns } from '#functions/agbot-patterns/list-patterns';
import { handler as postAgbotPattern } from '#functions/agbot-patterns/post-pattern';
import { handler as deleteAgbotPolicies } from '#functions/agbot-policies/delete-policies';
import { handler as deleteAgbotPolicy } from '#functions/agbot-policies/delete-policy';
import { handler as getAgbotPolicy } from '#functions/agbot-policies/get-policy';
import { handler as listAgbotPolicies } from '#functions/agbot-policies/list-policies';
import { handler as postAgbotPolicy } from '#functions/agbot-policies/post-policy';
import { dispatcher } from '#functions/dispatch';
import { handler as deleteAgbot } from './delete-agbot.ts';
import { handler as getAgbot } from './get-agbot.ts';
import { handler as listAgbots } from './list-agbots.ts';
import { handler as patchAgbot } from './patch-agbot.ts';
import { handler as postAgbotHeartbeat } from './post-heartbeat.ts';
import { handler as putAgbot } from './put-agbot.ts';
import { agbotsRoutes } from './routes.ts';

/** The agbots family's one Lambda: routes each request to its endpoint's handler (routes.ts). */
export const handler = dispatcher(agbotsRoutes, {
  'agbots/list-agbots': listAgbots,
  'agbots/get-agbot': getAgbot,
  'agbots/put-agbot': putAgbot,
  'agbots/patch-agbot': patchAgbot,
  'agbots/delete-agbot': deleteAgbot,
  'agbots/post-heartbeat': postAgbotHeartbeat,
  // `/agbots/{agreementbot}/patterns` and `/businesspols`: upstream's paths for the served lists.
  'agbot-patterns/list-patterns': listAgbotPatterns,
  'agbot-patterns/post-pattern': postAgbotPattern,
  'agbot-patterns/delete-patterns': deleteAgbotPatterns,
  'agbot-patterns/get-pattern': getAgbotPattern,
  'agbot-patterns/delete-pattern': deleteAgbotPattern,
  'agbot-policies/list-policies': listAgbotPolicies,
  'agbot-policies/post-policy': postAgbotPolicy,
  'agbot-policies/delete-policies': deleteAgbotPolicies,
  'agbot-policies/get-policy': getAgbotPolicy,
  'agbot-policies/delete-policy': deleteAgbotPolicy,
});
