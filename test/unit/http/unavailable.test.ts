import { describe, expect, it } from 'vitest';
import { handleError } from '#lib/http/on-error';
import { isUnavailable } from '#lib/http/unavailable';
import { FeedNumberingTimeout } from '#tables/feed/changes';

/** The errors the AWS SDK throws when DynamoDB cannot be reached, as it builds them. */
const withCode = (message: string, code: string) =>
  Object.assign(new Error(message), { code, $metadata: { attempts: 5 } });
const named = (name: string) => Object.assign(new Error(name), { name, $metadata: { httpStatusCode: 400 } });

describe('isUnavailable: a dependency down, not a refusal', () => {
  it.each([
    ['connection refused', withCode('connect ECONNREFUSED 127.0.0.1:8000', 'ECONNREFUSED')],
    ['connection reset', withCode('socket hang up', 'ECONNRESET')],
    [
      'request timeout',
      Object.assign(new Error('exceeded 4000 ms'), { name: 'TimeoutError', code: 'ETIMEDOUT' }),
    ],
    [
      'both address families refused',
      new AggregateError([withCode('a', 'ECONNREFUSED'), withCode('b', 'ECONNREFUSED')]),
    ],
    ['a wrapped cause', new Error('query failed', { cause: withCode('x', 'ECONNRESET') })],
    ['throttled', named('ProvisionedThroughputExceededException')],
    ["DynamoDB's own failure", named('InternalServerError')],
    [
      "the change feed's numbering behind a backlog (seen at 1,000 nodes registering)",
      new FeedNumberingTimeout(),
    ],
  ])('%s', (_what, error) => {
    expect(isUnavailable(error)).toBe(true);
  });

  it.each([
    ['a failed condition', named('ConditionalCheckFailedException')],
    ['a validation error', named('ValidationException')],
    ['a cancelled transaction', named('TransactionCanceledException')],
    ['a bug', new TypeError('x is undefined')],
    ['not an error', 'ECONNREFUSED'],
  ])('%s is not', (_what, error) => {
    expect(isUnavailable(error)).toBe(false);
  });
});

describe('handleError', () => {
  const event = { rawPath: '/v1/orgs/o/nodes', requestContext: { http: { method: 'GET' } } };

  it('answers 503 with a JSON body when DynamoDB cannot be reached', () => {
    const response = handleError({ error: withCode('connect ECONNREFUSED', 'ECONNREFUSED'), event });
    expect(response.statusCode).toBe(503);
    expect(JSON.parse(String(response.body))).toEqual({
      code: 'database-connection-error',
      msg: 'the database is unavailable; retry later',
    });
  });

  it('still answers 500 for an unexpected error', () => {
    const response = handleError({ error: new TypeError('x is undefined'), event });
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(String(response.body)).code).toBe('internal_error');
  });
});
