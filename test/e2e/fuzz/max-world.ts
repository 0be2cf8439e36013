import { randomBytes } from 'node:crypto';
import { MAX_ID_LENGTH } from '#lib/ids';
import { seedDeploymentPolicy, seedPattern } from '#test/support/catalog';
import type { Credentials, Http } from '#test/support/http';
import { createUser, expectStatus, type Fixtures } from '#test/support/world';

/**
 * The world the fuzz suite attacks, made over HTTP as clients would: one org whose ids (org,
 * users, node, agbot, children) are MAX_ID_LENGTH characters and whose names are 4,096 characters
 * of one letter (the worst case for a backtracking `%a%a...b` filter), with a record behind every
 * kind of path parameter so that valid callers reach the deepest handlers.
 */
export interface MaxWorld {
  org: string;
  root: Credentials;
  admin: Credentials;
  user: Credentials;
  node: Credentials;
  agbot: Credentials;
  /** A valid value for each path parameter name of the OpenAPI document. */
  pathValues: Record<string, string>;
  /** Every plaintext secret the world holds: none may ever appear in an answer. */
  secrets: string[];
}

export const LONG_NAME = 'a'.repeat(4096);

/** `prefix` padded to exactly MAX_ID_LENGTH characters. */
export const maxId = (prefix: string): string => `${prefix}-`.padEnd(MAX_ID_LENGTH, prefix.slice(0, 1));

const secret = (what: string) => `${what}-secret-${randomBytes(8).toString('hex')}`;

async function ok(
  http: Http,
  method: string,
  path: string,
  auth: Credentials,
  body: unknown,
  status: number,
) {
  expectStatus(await http(method, path, { auth, body }), status, `${method} ${path.slice(0, 120)}...`);
}

export async function seedMaxWorld(http: Http, root: Credentials): Promise<MaxWorld> {
  const f: Fixtures = { http, root };
  const org = maxId('fuzzorg');
  const orgPath = `/v1/orgs/${org}`;
  await ok(http, 'POST', orgPath, root, { label: LONG_NAME, description: LONG_NAME }, 201);
  const [admin, user] = await Promise.all([
    createUser(f, org, maxId('admin'), { admin: true }),
    createUser(f, org, maxId('user')),
  ]);

  const nodeId = maxId('node');
  const node = { user: `${org}/${nodeId}`, secret: secret('node') };
  const nodePath = `${orgPath}/nodes/${nodeId}`;
  const nodeBody = { name: LONG_NAME, token: node.secret, pattern: '', publicKey: 'node-key', arch: 'amd64' };
  await ok(http, 'PUT', nodePath, user, nodeBody, 201);
  const policy = {
    label: LONG_NAME,
    description: LONG_NAME,
    properties: [{ name: 'purpose', value: 'fuzz' }],
  };
  await ok(http, 'PUT', `${nodePath}/policy`, user, policy, 201);
  const mgmtPolicy = maxId('mgmt');
  // A management status needs its policy, written by an org admin.
  const nmp = { label: LONG_NAME, description: LONG_NAME, enabled: false, patterns: [maxId('pattern')] };
  await ok(http, 'POST', `${orgPath}/managementpolicies/${mgmtPolicy}`, admin, nmp, 201);
  const status = { agentUpgradePolicyStatus: { scheduledTime: '2026-11-23T20:00:00Z', status: 'waiting' } };
  await ok(http, 'PUT', `${nodePath}/managementStatus/${mgmtPolicy}`, user, status, 201);

  const agbotId = maxId('agbot');
  const agbot = { user: `${org}/${agbotId}`, secret: secret('agbot') };
  const agbotPath = `${orgPath}/agbots/${agbotId}`;
  await ok(
    http,
    'PUT',
    agbotPath,
    user,
    { token: agbot.secret, name: LONG_NAME, publicKey: 'agbot-key' },
    200,
  );
  const agreement = maxId('agreement');
  const service = { orgid: org, pattern: LONG_NAME, url: LONG_NAME };
  await ok(
    http,
    'PUT',
    `${agbotPath}/agreements/${agreement}`,
    agbot,
    { service, state: 'negotiating' },
    201,
  );
  // Served pattern and policy ids are `<org>_<name>_<nodeOrg>`: 3 × 256 + 2 characters; a served
  // pattern or policy must exist.
  await seedPattern(org, maxId('pattern'));
  await seedDeploymentPolicy(org, maxId('policy'));
  await ok(
    http,
    'POST',
    `${agbotPath}/deployment/patterns`,
    user,
    { patternOrgid: org, pattern: maxId('pattern'), nodeOrgid: org },
    201,
  );
  await ok(
    http,
    'POST',
    `${agbotPath}/deployment/policies`,
    user,
    { businessPolOrgid: org, businessPol: maxId('policy'), nodeOrgid: org },
    201,
  );
  const posted = await http('POST', `${agbotPath}/msgs`, {
    auth: node,
    body: { message: LONG_NAME, ttl: 3600 },
  });
  expectStatus(posted, 201, 'POST agbot message');
  const message = /agbot msg (\d+) inserted/.exec(String(posted.body?.msg))?.[1] ?? '1';

  return {
    org,
    root,
    admin,
    user,
    node,
    agbot,
    pathValues: {
      organization: org,
      username: user.user.split('/')[1] ?? '',
      node: nodeId,
      mgmtpolicy: mgmtPolicy,
      agreementbot: agbotId,
      agreement,
      deploymentpattern: `${org}_${maxId('pattern')}_${org}`,
      deploymentpolicy: `${org}_${maxId('policy')}_${org}`,
      message,
    },
    secrets: [root.secret, admin.secret, user.secret, node.secret, agbot.secret],
  };
}
