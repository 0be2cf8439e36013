import { generateKeyPairSync } from 'node:crypto';
import type { Logger } from '#lib/json-logger';
import type { Credentials, HttpResult } from '#test/support/http';
import { createAgbot as createAgbotRecord } from '#test/support/identities';
import { createOrg, createUser, expectStatus } from '#test/support/world';
import { type Agbot, createAgbot } from '../../../agbot/agbot.ts';
import { loadAgbotConfig } from '../../../agbot/config.ts';
import type { E2eServer } from './offline.ts';

/**
 * What the agbot e2e tests share (agbot-rounds, agbot-patterns): an org with an admin and a
 * service owner, the org's own agbot serving one kind of deployment, the agbot started against
 * the real Exchange, and reads of its agreements from the Exchange and from its local API.
 */
export type Call = (
  auth: Credentials,
  method: 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
) => Promise<HttpResult>;

export const callerOf =
  (server: E2eServer): Call =>
  (auth, method, path, body) =>
    server.http(method, path, { auth, ...(body === undefined ? {} : { body }) });

/** The key the tests sign service deployments with (pkcs1 PEM, as `hzn` signs). */
export const testSigner = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });

export interface AgbotOrgOptions {
  org: string;
  agbot: string;
  token: string;
  /** The agbot's served row: `patterns` ({patternOrgid, pattern, nodeOrgid}) or `businesspols`. */
  serve: { kind: 'patterns' | 'businesspols'; row: Record<string, string> };
}

/**
 * Creates the org, `admin` (org admin, who owns the agbot record: only an admin's agbot delivers
 * secrets) and `owner` (a plain user, who publishes), and posts the agbot's served row.
 */
export async function setUpAgbotOrg(
  server: E2eServer,
  options: AgbotOrgOptions,
): Promise<{ admin: Credentials; owner: Credentials }> {
  const { org, agbot, token, serve } = options;
  const root = { user: 'root/root', secret: server.rootPassword };
  await createOrg({ http: server.http, root }, org);
  const admin = await createUser({ http: server.http, root }, org, 'admin', { admin: true });
  const owner = await createUser({ http: server.http, root }, org, 'owner');
  await createAgbotRecord(org, agbot, admin.user, { token });
  const agbotCreds = { user: `${org}/${agbot}`, secret: token };
  const path = `/v1/orgs/${org}/agbots/${agbot}/${serve.kind}`;
  expectStatus(await callerOf(server)(agbotCreds, 'POST', path, serve.row), 201, `serve ${serve.kind}`);
  return { admin, owner };
}

/** Starts the org's agbot polling every 0.3 s, its API on a free port; `env` adds or overrides settings. */
export async function startOrgAgbot(
  server: E2eServer,
  options: {
    org: string;
    agbot: string;
    token: string;
    dataDir: string;
    log: Logger;
    env?: Record<string, string>;
  },
): Promise<Agbot> {
  const config = loadAgbotConfig({
    HZN_EXCHANGE_URL: `${server.baseUrl}/v1`,
    HZN_AGBOT_ID: `${options.org}/${options.agbot}`,
    HZN_AGBOT_TOKEN: options.token,
    HZN_AGBOT_DATA_DIR: options.dataDir,
    HZN_AGBOT_POLL_SECONDS: '0.3',
    HZN_AGBOT_PORT: '0',
    ...options.env,
  });
  const agbot = createAgbot({ config, log: options.log });
  await agbot.start();
  return agbot;
}

/** The agbot's agreement row in the Exchange, as the org admin reads it, or undefined. */
export async function exchangeAgbotAgreement(
  server: E2eServer,
  admin: Credentials,
  agbot: string,
  agreementId: string,
): Promise<Record<string, unknown> | undefined> {
  const org = admin.user.split('/')[0];
  const res = await callerOf(server)(
    admin,
    'GET',
    `/v1/orgs/${org}/agbots/${agbot}/agreements/${agreementId}`,
  );
  return res.status === 200 ? res.body.agreements[agreementId] : undefined;
}

export interface LocalAgreements {
  active: { agreementId: string; state: string; nodeId: string; policy: string; pattern?: string }[];
  archived: {
    agreementId: string;
    terminatedReason: number;
    terminatedDescription: string;
    pattern?: string;
  }[];
}

type UpstreamAgreement = Record<string, unknown> & {
  current_agreement_id: string;
  device_id: string;
  policy_name: string;
  pattern: string;
  state: string;
  terminated_reason: number;
  terminated_description: string;
};

/** One agreement of the agbot's `GET /agreement` (upstream's field names), as these tests name its fields. */
const asLocal = (a: UpstreamAgreement) => ({
  agreementId: a.current_agreement_id,
  nodeId: a.device_id.slice(a.device_id.indexOf('/') + 1),
  policy: a.policy_name,
  state: a.state,
  terminatedReason: a.terminated_reason,
  terminatedDescription: a.terminated_description,
  ...(a.pattern ? { pattern: a.pattern } : {}),
});

/** The agbot's own `GET /agreement` (active and archived). */
export async function localAgreements(agbot: Agbot): Promise<LocalAgreements> {
  const res = await fetch(`http://127.0.0.1:${agbot.port()}/agreement`);
  const { agreements } = (await res.json()) as {
    agreements: { active: UpstreamAgreement[]; archived: UpstreamAgreement[] };
  };
  return { active: agreements.active.map(asLocal), archived: agreements.archived.map(asLocal) };
}
