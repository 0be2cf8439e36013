import { dispatcher } from '#lib/http/dispatch';
import { handler as listAllServices } from './list-all-services.ts';
import { handler as listCatalogServices } from './list-catalog-services.ts';
import { serviceCatalogRoutes } from './routes.ts';

/** The service catalog's one Lambda (routes.ts). */
export const handler = dispatcher(serviceCatalogRoutes, {
  'service-catalog/list-catalog-services': listCatalogServices,
  'service-catalog/list-all-services': listAllServices,
});
