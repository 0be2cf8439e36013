/** POST /v1/orgs/{organization}/secrets/{secret}: exactly PUT (upstream treats both alike). */
export { handler } from './put-secret.ts';
