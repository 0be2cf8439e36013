import { endpoint } from '#lib/http/endpoint';
import { noContent } from '#lib/http/responses';
import { deleteSecret } from '#tables/secret/records';
import { authorizeSecret } from './access.ts';
import { secretNotFound } from './get-secret.ts';
import { secretPath } from './schemas.ts';
import { secretNameOrThrow } from './secret-name.ts';

/** DELETE /v1/orgs/{organization}/secrets/{secret}: 204, 404 when there is none; a `deleted` change row. */
export const handler = endpoint({
  path: secretPath,
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
