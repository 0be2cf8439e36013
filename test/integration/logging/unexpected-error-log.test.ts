import type { Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as putNode } from '#functions/nodes/put-node';
import { handler as postUser } from '#functions/users/post-user';
import { basicAuthHeader } from '#lib/auth/basic';
import type { APIGatewayProxyEventV2 } from '#lib/http/lambda-types';
import type { Clock } from '#lib/time';
import { captureOutput } from '#test/support/capture-output';
import { createNode, createOrg, createUser } from '#test/support/identities';
import { useTestTable } from '#test/support/table';

useTestTable();

const ADMIN_PASSWORD = 'adm1n-Pa55word-for-log-test';
const NEW_USER_PASSWORD = 'n3w-user-Pa55word-in-body';
const NODE_TOKEN = 'n0de-t0ken-in-authorization';
const NEW_NODE_TOKEN = 'n3w-n0de-t0ken-in-body';

beforeAll(async () => {
  await createOrg('acme');
  await createUser('acme', 'admin', { admin: true, password: ADMIN_PASSWORD });
  await createUser('acme', 'bob');
  await createNode('acme', 'n1', 'acme/bob', { token: NODE_TOKEN });
});

/** A clock whose failure chain echoes a request secret, as a careless library's message might. */
const brokenClock = (echoed: string): Clock => ({
  now() {
    throw new Error('clock unavailable', { cause: new Error(`time source refused request with ${echoed}`) });
  },
});

/** An API Gateway HTTP API event as serverless-offline and Lambda deliver it, ids included. */
function apiEvent(
  method: string,
  path: string,
  pathParameters: Record<string, string>,
  authorization: string,
  body: unknown,
) {
  const event: APIGatewayProxyEventV2 & { requestContext: { requestId: string } } = {
    rawPath: path,
    headers: { authorization, 'content-type': 'application/json' },
    pathParameters,
    body: JSON.stringify(body),
    isBase64Encoded: false,
    requestContext: { requestId: `apigw-${method}-request`, http: { method, path } },
  };
  return event;
}

const lambdaContext = (awsRequestId: string) => ({ awsRequestId, functionName: 'test' }) as Context;

describe('a 5xx from a real handler', () => {
  it('logs one JSON line with the stack, the cause chain, the request ids and method/path, and no secret', async () => {
    const authorization = basicAuthHeader('acme/admin', ADMIN_PASSWORD);
    const body = { password: NEW_USER_PASSWORD, email: 'carol@example.com', admin: false };
    const event = apiEvent(
      'POST',
      '/v1/orgs/acme/users/carol',
      { organization: 'acme', username: 'carol' },
      authorization,
      body,
    );
    const handler = postUser.withDeps({ clock: brokenClock(NEW_USER_PASSWORD) });

    const { result, output } = await captureOutput(() => handler(event, lambdaContext('lambda-request-1')));

    expect(result.statusCode).toBe(500);
    expect(JSON.parse(result.body ?? '')).toEqual({ code: 'internal_error', msg: 'internal server error' });
    const lines = output.trim().split('\n');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? '');
    expect(line).toMatchObject({
      level: 'ERROR',
      message: 'unhandled error',
      status: 500,
      method: 'POST',
      path: '/v1/orgs/acme/users/carol',
      request_id: 'apigw-POST-request',
      aws_request_id: 'lambda-request-1',
      error: {
        name: 'Error',
        message: 'clock unavailable',
        cause: { name: 'Error', message: 'time source refused request with [redacted]' },
      },
    });
    expect(line.error.stack).toMatch(/^Error: clock unavailable\n\s+at /);
    expect(line.error.cause.stack).toContain('at ');
    for (const secret of [
      ADMIN_PASSWORD,
      NEW_USER_PASSWORD,
      authorization,
      authorization.slice('Basic '.length),
      'carol@example.com',
      event.body,
    ]) {
      expect(output).not.toContain(secret);
    }
  });

  it('keeps a node token out of the line, whether it came in the Authorization header or the body', async () => {
    const authorization = basicAuthHeader('acme/n1', NODE_TOKEN);
    const body = { name: 'renamed', token: NEW_NODE_TOKEN, pattern: '', publicKey: '' };
    const event = apiEvent(
      'PUT',
      '/v1/orgs/acme/nodes/n1',
      { organization: 'acme', node: 'n1' },
      authorization,
      body,
    );
    const handler = putNode.withDeps({ clock: brokenClock(`${NODE_TOKEN} and ${NEW_NODE_TOKEN}`) });

    const { result, output } = await captureOutput(() => handler(event, lambdaContext('lambda-request-2')));

    expect(result.statusCode).toBe(500);
    const lines = output.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      method: 'PUT',
      request_id: 'apigw-PUT-request',
      aws_request_id: 'lambda-request-2',
      error: { cause: { message: 'time source refused request with [redacted] and [redacted]' } },
    });
    for (const secret of [NODE_TOKEN, NEW_NODE_TOKEN, authorization.slice('Basic '.length), 'renamed']) {
      expect(output).not.toContain(secret);
    }
  });
});
