import { dispatcher } from '#lib/http/dispatch';
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
});
