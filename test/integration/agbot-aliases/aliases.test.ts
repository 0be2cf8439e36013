import type { Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as patternsLambda } from '#functions/agbot-patterns/lambda';
import { handler as policiesLambda } from '#functions/agbot-policies/lambda';
import { handler as agbotsLambda } from '#functions/agbots/lambda';
import { basicAuthHeader } from '#lib/auth/basic';
import type { APIGatewayProxyEventV2 } from '#lib/http/lambda-types';
import { seedDeploymentPolicy, seedPattern } from '#test/support/catalog';
import { createAgbot, createNode, createOrg, createUser } from '#test/support/identities';
import { tableSnapshot } from '#test/support/node-wire';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const context = {
  functionName: 'test',
  awsRequestId: 'test',
  getRemainingTimeInMillis: () => 30_000,
} as Context;

/**
 * A request as API Gateway hands it to the Lambda whose mount takes it: `/deployment/...` paths
 * to their own families, the alias paths to the agbots family (`agbots/{proxy+}`).
 */
async function call(method: string, rawPath: string, auth: Auth, body?: unknown) {
  const event: APIGatewayProxyEventV2 = {
    rawPath,
    headers: {
      authorization: basicAuthHeader(auth.user, auth.secret),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    pathParameters: { organization: 'acme', proxy: rawPath.split('/agbots/')[1] ?? '' },
    requestContext: { http: { method, path: rawPath } },
    body: body === undefined ? undefined : JSON.stringify(body),
    isBase64Encoded: false,
  };
  const lambda = rawPath.includes('/deployment/patterns')
    ? patternsLambda
    : rawPath.includes('/deployment/policies')
      ? policiesLambda
      : agbotsLambda;
  const response = await lambda(event, context);
  return { status: response.statusCode, body: JSON.parse(response.body || 'null') };
}

let alice: Auth;
let bot: Auth;
let node: Auth;
const base = '/v1/orgs/acme/agbots/bot';

beforeAll(async () => {
  await createOrg('acme');
  alice = await createUser('acme', 'alice');
  bot = await createAgbot('acme', 'bot', 'acme/alice');
  node = await createNode('acme', 'n1', 'acme/alice');
  // A served pattern or policy must exist.
  await Promise.all([
    seedPattern('acme', 'p1'),
    seedPattern('acme', 'p2'),
    seedDeploymentPolicy('acme', 'pol'),
  ]);
});

describe('/agbots/{agreementbot}/patterns: the served patterns of /deployment/patterns', () => {
  it('adds, lists, reads and deletes the same records as the /deployment path', async () => {
    const added = await call('POST', `${base}/patterns`, bot, { patternOrgid: 'acme', pattern: 'p1' });
    expect(added).toEqual({ status: 201, body: { code: 'ok', msg: 'pattern acme_p1 added' } });
    const listed = await call('GET', `${base}/deployment/patterns`, alice);
    expect(Object.keys(listed.body.patterns)).toEqual(['acme_p1']);
    expect((await call('GET', `${base}/patterns/acme_p1`, bot)).body).toEqual(listed.body);
    expect(
      (await call('POST', `${base}/patterns`, bot, { patternOrgid: 'acme', pattern: 'p1' })).status,
    ).toBe(409);
    expect((await call('DELETE', `${base}/patterns/acme_p1`, bot)).status).toBe(204);
    expect((await call('GET', `${base}/deployment/patterns`, bot)).status).toBe(404);
    await call('POST', `${base}/deployment/patterns`, bot, { patternOrgid: 'acme', pattern: 'p2' });
    expect((await call('DELETE', `${base}/patterns`, alice)).status).toBe(204);
    expect((await call('GET', `${base}/patterns`, alice)).body).toEqual({ patterns: {} });
  });

  it('keeps the rules: a node may not add one, and nothing is written', async () => {
    const before = await tableSnapshot();
    const denied = await call('POST', `${base}/patterns`, node, { patternOrgid: 'acme', pattern: 'x' });
    expect(denied.status).toBe(403);
    expect(await tableSnapshot()).toEqual(before);
  });
});

describe('/agbots/{agreementbot}/businesspols: the served policies of /deployment/policies', () => {
  it('adds, lists, reads and deletes the same records as the /deployment path', async () => {
    const policy = { businessPolOrgid: 'acme', businessPol: 'pol' };
    const added = await call('POST', `${base}/businesspols`, bot, policy);
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const listed = await call('GET', `${base}/deployment/policies`, alice);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const [id] = Object.keys(listed.body.businessPols);
    expect((await call('GET', `${base}/businesspols/${id}`, bot)).body).toEqual(listed.body);
    expect((await call('DELETE', `${base}/businesspols/${id}`, bot)).status).toBe(204);
    expect((await call('DELETE', `${base}/businesspols`, bot)).status).toBe(404);
  });

  it('keeps the rules: a policy of another org needs an admin (403), writing nothing', async () => {
    const before = await tableSnapshot();
    const denied = await call('POST', `${base}/businesspols`, alice, {
      businessPolOrgid: 'else',
      businessPol: 'p',
    });
    expect(denied.status).toBe(403);
    expect(await tableSnapshot()).toEqual(before);
  });
});
