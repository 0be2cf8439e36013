import { endpoint } from '#functions/endpoint';
import { HttpError, notFound } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { log } from '#lib/log';
import { open, SecretIntegrityError } from '#lib/secrets/envelope';
import { keyProvider } from '#lib/secrets/provider';
import { getSecret } from '#tables/secret/records';
import { secretsRoutes } from './routes.ts';
import { authorizeSecret } from './shared/access.ts';
import { authorizeDelivery } from './shared/delivery.ts';
import { secretNameOrThrow } from './shared/secret-name.ts';

export const secretNotFound = (name: string) => notFound(`No secret(s) found under secret name '${name}'`);

/**
 * GET /v1/orgs/{organization}/secrets/{secret}: `{key, value}`, opened from its envelope, for a
 * user who may read it, or an agbot delivering it for `?policy=` or `?pattern=` (shared/delivery.ts). A value
 * that fails its integrity check (moved from another item, altered) is logged as such and
 * answered 409, never 500 and never a value.
 */
export const handler = endpoint(secretsRoutes.operations.getSecret, {
  authorize({ caller, path }) {
    const name = secretNameOrThrow(path.secret);
    // An agbot's right depends on the policy or pattern its query names: checked once parsed.
    if (caller.kind !== 'agbot') authorizeSecret(caller, path.organization, 'read', name);
    return name;
  },
  async handle({ caller, path, query, target }) {
    if (caller.kind === 'agbot') await authorizeDelivery(caller, path.organization, target.name, query);
    const context = { org: path.organization, name: target.name };
    const record = await getSecret(context.org, context.name);
    if (!record) throw secretNotFound(context.name);
    try {
      return json(200, JSON.parse(await open(keyProvider(), record.sealed, context)));
    } catch (error) {
      if (!(error instanceof SecretIntegrityError)) throw error;
      log.error('secret integrity error: the stored value does not open under its org and name', {
        org: context.org,
        name: context.name,
      });
      throw new HttpError(
        409,
        'invalid-input',
        `secret '${context.name}' cannot be read: its stored value failed the integrity check; write it again`,
      );
    }
  },
});
