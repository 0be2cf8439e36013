import { dispatcher } from '#functions/dispatch';
import { handler as deleteNodeAgreement } from './delete-agreement.ts';
import { handler as deleteNodeAgreements } from './delete-agreements.ts';
import { handler as getNodeAgreement } from './get-agreement.ts';
import { handler as listNodeAgreements } from './list-agreements.ts';
import { handler as putNodeAgreement } from './put-agreement.ts';
import { nodeAgreementsRoutes } from './routes.ts';

/** The node agreements family's one Lambda: routes each request to its endpoint's handler (routes.ts). */
export const handler = dispatcher(nodeAgreementsRoutes, {
  'node-agreements/list-agreements': listNodeAgreements,
  'node-agreements/delete-agreements': deleteNodeAgreements,
  'node-agreements/get-agreement': getNodeAgreement,
  'node-agreements/put-agreement': putNodeAgreement,
  'node-agreements/delete-agreement': deleteNodeAgreement,
});
