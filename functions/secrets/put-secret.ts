import { endpoint } from '#functions/endpoint';
import { badInput } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { seal } from '#lib/secrets/envelope';
import { keyProvider } from '#lib/secrets/provider';
import { isoTimestamp } from '#lib/time';
import { putSecret } from '#tables/secret/records';
import { secretsRoutes } from './routes.ts';
import { authorizeSecret } from './shared/access.ts';
import { MAX_SECRET_BODY_BYTES } from './shared/schemas.ts';
import { boundNode, secretNameOrThrow } from './shared/secret-name.ts';

/**
 * PUT and POST /v1/orgs/{organization}/secrets/{secret}: create or overwrite (upstream treats
 * both alike) → 201. Only `{key, value}` is sealed and stored; its change row names the secret.
 */
export const handler = endpoint(secretsRoutes.operations.putSecret, {
  async authorize({ caller, path, event }) {
    const name = secretNameOrThrow(path.secret);
    await authorizeSecret(caller, path.organization, 'write', name);
    const raw = typeof event.body === 'string' ? event.body : '';
    const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64').length : Buffer.byteLength(raw);
    if (bytes > MAX_SECRET_BODY_BYTES)
      throw badInput(`invalid input: the body must be at most ${MAX_SECRET_BODY_BYTES} bytes`);
    return name;
  },
  async handle({ path, body, target, deps }) {
    const context = { org: path.organization, name: target.name };
    const sealed = await seal(keyProvider(), JSON.stringify({ key: body.key, value: body.value }), context);
    await putSecret({ ...context, sealed, node: boundNode(target) }, isoTimestamp(deps.clock));
    return ok('Secret created/updated.');
  },
});
