import { dispatcher } from '#functions/dispatch';
import { handler as deleteServiceDockAuth } from './delete-dockauth.ts';
import { handler as deleteServiceDockAuths } from './delete-dockauths.ts';
import { handler as deleteService } from './delete-service.ts';
import { handler as deleteServiceKey } from './delete-service-key.ts';
import { handler as deleteServiceKeys } from './delete-service-keys.ts';
import { handler as deleteServicePolicy } from './delete-service-policy.ts';
import { handler as getServiceDockAuth } from './get-dockauth.ts';
import { handler as getService } from './get-service.ts';
import { handler as getServiceKey } from './get-service-key.ts';
import { handler as getServicePolicy } from './get-service-policy.ts';
import { handler as listServiceDockAuths } from './list-dockauths.ts';
import { handler as listServiceKeys } from './list-service-keys.ts';
import { handler as listServices } from './list-services.ts';
import { handler as patchService } from './patch-service.ts';
import { handler as postServiceDockAuth } from './post-dockauth.ts';
import { handler as postService } from './post-service.ts';
import { handler as putServiceDockAuth } from './put-dockauth.ts';
import { handler as putService } from './put-service.ts';
import { handler as putServiceKey } from './put-service-key.ts';
import { handler as putServicePolicy } from './put-service-policy.ts';
import { servicesRoutes } from './routes.ts';

/** The services family's one Lambda: routes each request to its endpoint's handler (routes.ts). */
export const handler = dispatcher(servicesRoutes, {
  'services/list-services': listServices,
  'services/post-service': postService,
  'services/get-service': getService,
  'services/put-service': putService,
  'services/patch-service': patchService,
  'services/delete-service': deleteService,
  'services/get-service-policy': getServicePolicy,
  'services/put-service-policy': putServicePolicy,
  'services/delete-service-policy': deleteServicePolicy,
  'services/list-service-keys': listServiceKeys,
  'services/delete-service-keys': deleteServiceKeys,
  'services/get-service-key': getServiceKey,
  'services/put-service-key': putServiceKey,
  'services/delete-service-key': deleteServiceKey,
  'services/list-dockauths': listServiceDockAuths,
  'services/post-dockauth': postServiceDockAuth,
  'services/delete-dockauths': deleteServiceDockAuths,
  'services/get-dockauth': getServiceDockAuth,
  'services/put-dockauth': putServiceDockAuth,
  'services/delete-dockauth': deleteServiceDockAuth,
});
