import type * as z from 'zod';
import { MASKED } from '#lib/auth/secrets';
import type { DockAuthRecord } from '#tables/service/children';
import type { serviceDockAuth } from './responses.ts';

/** A dockauth as answered: the token is masked (upstream returns it in clear). */
export const dockAuthView = (auth: DockAuthRecord): z.infer<typeof serviceDockAuth> => ({
  dockAuthId: auth.dockAuthId,
  registry: auth.registry,
  username: auth.username,
  token: MASKED,
  lastUpdated: auth.lastUpdated,
});
