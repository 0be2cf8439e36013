import httpJsonBodyParser from '@middy/http-json-body-parser';
import { HttpError } from './errors.ts';
import { MAX_BODY_DEPTH, nestsDeeperThan } from './json-depth.ts';
import type { APIGatewayProxyEventV2 } from './lambda-types.ts';

const parseJsonBody = httpJsonBodyParser({ disableContentTypeError: true }).before;

const invalid = (msg: string) => new HttpError(400, 'invalid-input', `invalid input: ${msg}`);
const tooDeep = () => invalid(`the body nests deeper than ${MAX_BODY_DEPTH} levels`);

/** The parser's refusal as our 400 message. */
function parseFailure(error: unknown): HttpError {
  const { message, cause } = error as { message?: string; cause?: { data?: unknown; message?: string } };
  // The parser refuses `__proto__` (and `constructor.prototype`): copied into objects they would
  // change a prototype or be dropped silently. Say so, not "malformed".
  if (message === 'Forbidden key in JSON body')
    return invalid(`the body key '${String(cause?.data)}' is not allowed`);
  if (cause?.message?.includes('Maximum call stack size exceeded')) return tooDeep();
  return invalid(`malformed JSON body${cause?.message ? `: ${cause.message}` : ''}`);
}

/** The request's JSON body: 415 for another media type, 400 when absent, malformed or too deep. */
export function readBody(event: APIGatewayProxyEventV2): unknown {
  const contentType = event.headers['content-type'] ?? event.headers['Content-Type'];
  if (contentType !== undefined && !/^application\/(.+\+)?json\b/i.test(contentType)) {
    throw new HttpError(
      415,
      'invalid-input',
      `invalid input: Content-Type must be application/json, not '${contentType}'`,
    );
  }
  if (event.body === undefined || event.body === null || event.body === '') {
    throw invalid('a JSON request body is required');
  }
  const request = { event: { ...event, headers: { 'content-type': 'application/json' } } };
  try {
    // biome-ignore lint/suspicious/noExplicitAny: middy's request type is wider than what the parser reads.
    parseJsonBody?.(request as any);
  } catch (error) {
    throw parseFailure(error);
  }
  const body: unknown = request.event.body;
  if (nestsDeeperThan(body, MAX_BODY_DEPTH)) throw tooDeep();
  return body;
}
