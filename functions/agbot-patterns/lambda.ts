import { dispatcher } from '#functions/dispatch';
import { handler as deleteAgbotPattern } from './delete-pattern.ts';
import { handler as deleteAgbotPatterns } from './delete-patterns.ts';
import { handler as getAgbotPattern } from './get-pattern.ts';
import { handler as listAgbotPatterns } from './list-patterns.ts';
import { handler as postAgbotPattern } from './post-pattern.ts';
import { agbotPatternsRoutes } from './routes.ts';

/** The agbot deployment patterns family's one Lambda: routes each request to its endpoint's handler (routes.ts). */
export const handler = dispatcher(agbotPatternsRoutes, {
  'agbot-patterns/list-patterns': listAgbotPatterns,
  'agbot-patterns/post-pattern': postAgbotPattern,
  'agbot-patterns/delete-patterns': deleteAgbotPatterns,
  'agbot-patterns/get-pattern': getAgbotPattern,
  'agbot-patterns/delete-pattern': deleteAgbotPattern,
});
