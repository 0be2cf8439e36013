import { dispatcher } from '#functions/dispatch';
import { handler as deleteAgbotMessage } from './delete-message.ts';
import { handler as getAgbotMessage } from './get-message.ts';
import { handler as listAgbotMessages } from './list-messages.ts';
import { handler as postAgbotMessage } from './post-message.ts';
import { agbotMessagesRoutes } from './routes.ts';

/** The agbot messages family's one Lambda: routes each request to its endpoint's handler (routes.ts). */
export const handler = dispatcher(agbotMessagesRoutes, {
  'agbot-messages/list-messages': listAgbotMessages,
  'agbot-messages/post-message': postAgbotMessage,
  'agbot-messages/get-message': getAgbotMessage,
  'agbot-messages/delete-message': deleteAgbotMessage,
});
