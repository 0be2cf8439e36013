import { dispatcher } from '#functions/dispatch';
import { agbotMessagesRoutes } from './routes.ts';

/** The agbot messages family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(agbotMessagesRoutes);
