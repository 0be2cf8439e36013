import { randomBytes } from 'node:crypto';
import type { Credentials, Http, HttpResult } from './http.ts';
import { createAgbot } from './identities.ts';

/**
 * Fixtures made over HTTP, as a client would: root creates orgs and users, users create their
 * nodes with PUT. Agbots are written straight to the table (their endpoints arrive later).
 */
export interface OrgWorld {
  org: string;
  admin: Credentials;
  /** Plain user; owns `node`. */
  user: Credentials;
  /** Another plain user; owns `node2`. */
  user2: Credentials;
  node: Credentials;
  node2: Credentials;
  /** Owned by `user`. */
  agbot: Credentials;
  /** Owned by `user2`. */
  agbot2: Credentials;
}

export interface Fixtures {
  http: Http;
  root: Credentials;
}

let counter = 0;
/** A new id, unique within the run: cases that change state work on records of their own. */
export const freshId = (prefix: string): string => `${prefix}-${++counter}-${randomBytes(3).toString('hex')}`;

/** Throws with the request and the answer when a fixture could not be made. */
export function expectStatus(result: HttpResult, status: number, what: string): HttpResult {
  if (result.status !== status) {
    throw new Error(
      `fixture failed: ${what} → ${result.status} (expected ${status}): ${result.text.slice(0, 300)}`,
    );
  }
  return result;
}

export async function createOrg(f: Fixtures, org: string): Promise<void> {
  const body = { label: `${org} label`, description: `${org} description` };
  expectStatus(await f.http('POST', `/v1/orgs/${org}`, { auth: f.root, body }), 201, `POST /v1/orgs/${org}`);
}

export async function createUser(
  f: Fixtures,
  org: string,
  username: string,
  flags: { admin?: boolean; hubAdmin?: boolean } = {},
): Promise<Credentials> {
  const password = `${username}-pw-${randomBytes(4).toString('hex')}`;
  const body = {
    password,
    admin: flags.admin ?? false,
    hubAdmin: flags.hubAdmin ?? false,
    email: `${username}@example.com`,
  };
  const path = `/v1/orgs/${org}/users/${username}`;
  expectStatus(await f.http('POST', path, { auth: f.root, body }), 201, `POST ${path}`);
  return { user: `${org}/${username}`, secret: password };
}

/** A node registered by its owner: token, pattern and publicKey go together (all or none). */
export async function createNode(f: Fixtures, owner: Credentials, id: string): Promise<Credentials> {
  const [org] = owner.user.split('/');
  const token = `${id}-token-${randomBytes(4).toString('hex')}`;
  const path = `/v1/orgs/${org}/nodes/${id}`;
  const body = { name: id, token, pattern: '', publicKey: '', arch: 'amd64' };
  expectStatus(await f.http('PUT', path, { auth: owner, body }), 201, `PUT ${path}`);
  return { user: `${org}/${id}`, secret: token };
}

export async function putNodePolicy(f: Fixtures, node: Credentials): Promise<void> {
  const [org, id] = node.user.split('/');
  const path = `/v1/orgs/${org}/nodes/${id}/policy`;
  const body = {
    label: 'policy',
    description: 'a node policy',
    properties: [{ name: 'purpose', value: 'e2e' }],
  };
  expectStatus(await f.http('PUT', path, { auth: f.root, body }), 201, `PUT ${path}`);
}

/** An org with an admin, two plain users, a node and an agbot of each. */
export async function createOrgWorld(f: Fixtures, org: string): Promise<OrgWorld> {
  await createOrg(f, org);
  const [admin, user, user2] = await Promise.all([
    createUser(f, org, 'admin', { admin: true }),
    createUser(f, org, 'user'),
    createUser(f, org, 'user2'),
  ]);
  const [node, node2] = await Promise.all([createNode(f, user, 'node1'), createNode(f, user2, 'node2')]);
  const agbotToken = () => `agbot-token-${randomBytes(4).toString('hex')}`;
  const agbot = await createAgbot(org, 'agbot1', user.user, { token: agbotToken() });
  const agbot2 = await createAgbot(org, 'agbot2', user2.user, { token: agbotToken() });
  return { org, admin, user, user2, node, node2, agbot, agbot2 };
}
