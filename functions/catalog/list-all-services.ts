/** GET /v1/services: upstream's alias of GET /v1/catalog/services, the same endpoint. */
export { handler } from './list-catalog-services.ts';
