import { dispatcher } from '#functions/dispatch';
import { handler as getMaxChangeId } from './get-max-change-id.ts';
import { handler as postChanges } from './post-changes.ts';
import { changesRoutes } from './routes.ts';

/** The change feed family's one Lambda: routes each request to its endpoint's handler (routes.ts). */
export const handler = dispatcher(changesRoutes, {
  'changes/post-changes': postChanges,
  'changes/get-max-change-id': getMaxChangeId,
});
