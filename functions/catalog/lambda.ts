import { dispatcher } from '#functions/dispatch';
import { handler as listAllServices } from './list-all-services.ts';
import { handler as listCatalogPatterns } from './list-catalog-patterns.ts';
import { handler as listCatalogServices } from './list-catalog-services.ts';
import { catalogRoutes } from './routes.ts';

/** The catalog's one Lambda (routes.ts). */
export const handler = dispatcher(catalogRoutes, {
  'catalog/list-catalog-services': listCatalogServices,
  'catalog/list-all-services': listAllServices,
  'catalog/list-catalog-patterns': listCatalogPatterns,
});
