import { MAX_KEY_LENGTH } from '#functions/services/shared/schemas';
import { badInput } from '#lib/http/errors';
import type { APIGatewayProxyEventV2 } from '#lib/http/lambda-types';

/**
 * The body of a service or pattern key PUT: the key or certificate text itself (any content
 * type, as upstream), required and bounded.
 */
export function keyFromBody(event: Pick<APIGatewayProxyEventV2, 'body' | 'isBase64Encoded'>): string {
  const raw = typeof event.body === 'string' ? event.body : '';
  const key = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  if (key === '') throw badInput('invalid input: the request body (the key) is required');
  if (key.length > MAX_KEY_LENGTH)
    throw badInput(`invalid input: the request body (the key) must be at most ${MAX_KEY_LENGTH} characters`);
  return key;
}
