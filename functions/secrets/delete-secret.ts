import { endpoint } from '#functions/endpoint';
import { noContent } from '#lib/http/responses';
import { deleteSecret } from '#tables/secret/records';
import { secretNotFound } from './get-secret.ts';
import { secretsRoutes } from './routes.ts';
import { authorizeSecret } from './shared/access.ts';
import { secretNameOrThrow } from './shared/secret-name.ts';

/** DELETE /v1/orgs/{organization}/secrets/{secret}: 204, 404 when there is none; a `deleted` change row. */
export const handler = endpoint(secretsRoutes.operations.deleteSecret, {
  async authorize({ caller, path }) {
    const name = secretNameOrThrow(path.secret);
    await authorizeSecret(caller, path.organization, 'delete', name);
    return name;
  },
  async handle({ path, target }) {
    if (!(await deleteSecret(path.organization, target.name))) throw secretNotFound(target.name);
    return noContent();
  },
});
