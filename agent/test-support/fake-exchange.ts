import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small in-memory Exchange for agent tests: a real HTTP server on 127.0.0.1 that speaks the
 * part of the Exchange API the agent uses (version, org, node GET/PATCH/DELETE, heartbeat, the
 * change feed `POST /orgs/{org}/changes` (a heartbeat too), node policy, node management
 * statuses, pattern GET, the node's mailbox paged as the Exchange pages it, the node's status and
 * errors as it reports them), checks node
 * credentials, and can be stopped and restarted on the same port to play "unreachable".
 */

/** A message in a node's mailbox, as the Exchange lists it. */
export interface FakeNodeMessage {
  msgId: number;
  agbotId: string;
  agbotPubKey: string;
  message: string;
  timeSent: string;
  timeExpires: string;
}
export interface FakeNode {
  token: string;
  name: string;
  nodeType: string;
  pattern: string;
  arch: string;
  userInput: unknown[];
  registeredServices: unknown[];
  softwareVersions: Record<string, string>;
  ha_group: string | null;
  lastUpdated: string;
  lastHeartbeat: string | null;
}

export interface FakeExchange {
  url: string;
  orgs: Set<string>;
  nodes: Map<string, FakeNode>;
  policies: Map<string, Record<string, unknown>>;
  patterns: Set<string>;
  /** Service definitions by `org/<id>`, listed by `GET /orgs/{org}/services?url=`. */
  services: Map<string, Record<string, unknown>>;
  /** Node management policies by `<org>/<name>` (`GET /orgs/{org}/managementpolicies`). */
  managementPolicies: Map<string, Record<string, unknown>>;
  /** Node management statuses: node key → `<org>/<policy>` → status (with `lastUpdated`). */
  managementStatuses: Map<string, Map<string, { agentUpgradePolicyStatus: Record<string, unknown> }>>;
  /** What the node reported: its status and its surfaced errors, by node key (as last PUT). */
  statuses: Map<string, unknown>;
  nodeErrors: Map<string, unknown>;
  /** Every request seen, as "METHOD /path". */
  requests: string[];
  /** Node mailboxes by node key, oldest first; the query of every list read. */
  nodeMessages: Map<string, FakeNodeMessage[]>;
  mailboxReads: { maxmsgs: string | null; after: string | null }[];
  /** When each of `requests` arrived (ms since the epoch). */
  requestTimes: number[];
  /** The change feed: a row per Exchange-side write, ids from 1 (as `POST /changes` answers them). */
  changes: { changeId: number; orgId: string; resource: string; id: string }[];
  /** Records a change row, as a write the agent did not make would (e.g. an agbot's message). */
  recordChange(key: string, resource: string): void;
  addNode(org: string, id: string, token: string, extra?: Partial<FakeNode>): void;
  /** Exchange-side edits (as another client would make them). */
  patchNode(key: string, attribute: keyof FakeNode, value: unknown): void;
  putPolicy(key: string, policy: Record<string, unknown>): void;
  /** An NMP as an org admin would write it (stamps `lastUpdated`, records a `mgmtpolicy` row); undefined deletes it. */
  putManagementPolicy(key: string, nmp: Record<string, unknown> | undefined): void;
  /** A management status as a user of the node's org would PUT it. */
  putManagementStatus(key: string, policy: string, status: Record<string, unknown>): void;
  stop(): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** `port` 0: any free port (a fixed one lets a test use a port that fetch refuses). */
export async function startFakeExchange(version = '2.154.0', port = 0): Promise<FakeExchange> {
  let last = 0;
  /** Strictly increasing timestamps, like the Exchange's lastUpdated. */
  const stamp = () => {
    last = Math.max(Date.now(), last + 1);
    return new Date(last).toISOString();
  };
  const fake = {
    orgs: new Set<string>(),
    nodes: new Map<string, FakeNode>(),
    policies: new Map<string, Record<string, unknown>>(),
    patterns: new Set<string>(),
    services: new Map<string, Record<string, unknown>>(),
    managementPolicies: new Map<string, Record<string, unknown>>(),
    managementStatuses: new Map<string, Map<string, { agentUpgradePolicyStatus: Record<string, unknown> }>>(),
    statuses: new Map<string, unknown>(),
    nodeErrors: new Map<string, unknown>(),
    requests: [] as string[],
    nodeMessages: new Map<string, FakeNodeMessage[]>(),
    mailboxReads: [] as { maxmsgs: string | null; after: string | null }[],
    requestTimes: [] as number[],
    changes: [] as FakeExchange['changes'],
  };
  const recordChange = (key: string, resource: string) => {
    const [orgId = '', id = ''] = key.split('/');
    fake.changes.push({ changeId: fake.changes.length + 1, orgId, resource, id });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname.replace(/^\/v1/, '');
    fake.requests.push(`${req.method} ${path}`);
    fake.requestTimes.push(Date.now());
    const body = await readBody(req);
    const send = (status: number, payload?: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(payload === undefined ? '' : typeof payload === 'string' ? payload : JSON.stringify(payload));
    };
    if (req.method === 'GET' && path === '/admin/version') return send(200, `${version}\n`, 'text/plain');
    const caller = authenticate(req, fake.nodes);
    if (!caller) return send(401, { code: 'invalid-credentials', msg: 'invalid credentials' });
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    const [, org, kind, id, sub] = parts;
    if (kind === 'changes' && parts.length === 3 && req.method === 'POST')
      return changesRoute(caller, org, body, send);
    if (parts.length === 2 && req.method === 'GET') {
      return fake.orgs.has(org ?? '')
        ? send(200, { orgs: { [org ?? '']: { label: org } } })
        : send(404, { code: 'not-found', msg: 'not found' });
    }
    if (kind === 'patterns' && req.method === 'GET') {
      const key = `${org}/${id}`;
      return fake.patterns.has(key)
        ? send(200, { patterns: { [key]: { services: [] } } })
        : send(404, { code: 'not-found', msg: 'not found' });
    }
    if (kind === 'managementpolicies' && id === undefined && req.method === 'GET') {
      const found = [...fake.managementPolicies].filter(([k]) => k.startsWith(`${org}/`));
      return send(found.length ? 200 : 404, { managementPolicy: Object.fromEntries(found), lastIndex: 0 });
    }
    if (kind === 'services' && id === undefined && req.method === 'GET') {
      const wanted = url.searchParams.get('url');
      const found = [...fake.services].filter(
        ([k, s]) => k.startsWith(`${org}/`) && (wanted === null || s.url === wanted),
      );
      return found.length > 0
        ? send(200, { services: Object.fromEntries(found), lastIndex: 0 })
        : send(404, { code: 'not-found', msg: 'not found' });
    }
    const key = `${org}/${id}`;
    if (kind !== 'nodes' || caller !== key) return send(403, { code: 'access-denied', msg: 'access denied' });
    const node = fake.nodes.get(key);
    if (!node) return send(404, { code: 'not-found', msg: 'not found' });
    if (sub === undefined) return nodeRoute(req.method, key, node, body, send);
    if (sub === 'heartbeat' && req.method === 'POST') {
      node.lastHeartbeat = stamp();
      return send(201, { code: 'ok', msg: 'node updated' });
    }
    if (sub === 'policy') return policyRoute(req.method, key, node, body, send);
    if (sub === 'managementStatus') return managementRoute(req.method, key, parts[5], body, send);
    if (sub === 'msgs') return messagesRoute(req.method, key, url, parts[5], send);
    if ((sub === 'status' || sub === 'errors') && parts.length === 5) {
      const kept = sub === 'status' ? fake.statuses : fake.nodeErrors;
      if (req.method === 'GET')
        return kept.has(key) ? send(200, kept.get(key)) : send(404, { code: 'not-found', msg: 'not found' });
      if (req.method === 'PUT') {
        kept.set(key, body);
        recordChange(key, sub === 'status' ? 'nodestatus' : 'nodeerrors');
        return send(201, { code: 'ok', msg: 'status added or updated' });
      }
    }
    return send(404, { code: 'not-found', msg: 'no such route' });
  };

  /** Upstream's feed for a node: its own rows, from `changeId` on; the call is its heartbeat. */
  const changesRoute = (caller: string, org: string | undefined, body: unknown, send: Send) => {
    const node = fake.nodes.get(caller);
    if (!node || !caller.startsWith(`${org}/`))
      return send(403, { code: 'access-denied', msg: 'access denied' });
    node.lastHeartbeat = stamp();
    const from = Number((body as { changeId?: number } | undefined)?.changeId ?? 0);
    // Rows about the node, and the org's management policy rows (every node of the org sees those).
    const rows = fake.changes.filter(
      (c) =>
        c.changeId >= from &&
        (`${c.orgId}/${c.id}` === caller ||
          (c.resource === 'mgmtpolicy' && caller.startsWith(`${c.orgId}/`))),
    );
    const mostRecentChangeId = fake.changes.length;
    return send(201, {
      changes: rows.map((c) => ({
        orgId: c.orgId,
        resource: c.resource,
        id: c.id,
        resourceChanges: [{ changeId: c.changeId }],
      })),
      mostRecentChangeId:
        rows.length > 0 ? (rows.at(-1)?.changeId ?? mostRecentChangeId) : mostRecentChangeId,
      hitMaxRecords: false,
      exchangeVersion: version,
    });
  };

  const nodeRoute = (method: string | undefined, key: string, node: FakeNode, body: unknown, send: Send) => {
    if (method === 'GET') {
      const { token: _token, ...shown } = node;
      return send(200, { nodes: { [key]: { ...shown, token: '***************' } }, lastIndex: 0 });
    }
    if (method === 'PATCH') {
      const entries = body && typeof body === 'object' && !Array.isArray(body) ? Object.entries(body) : [];
      if (entries.length !== 1) return send(400, { code: 'invalid-input', msg: 'bad input' });
      const [attribute, value] = entries[0] as [string, unknown];
      (node as unknown as Record<string, unknown>)[attribute] = value;
      node.lastUpdated = stamp();
      recordChange(key, 'node');
      return send(201, { code: 'ok', msg: `attribute '${attribute}' of node '${key}' updated` });
    }
    if (method === 'DELETE') {
      fake.nodes.delete(key);
      fake.policies.delete(key);
      fake.managementStatuses.delete(key);
      return send(204);
    }
    return send(405, { code: 'method-not-allowed', msg: 'no' });
  };

  const policyRoute = (
    method: string | undefined,
    key: string,
    node: FakeNode,
    body: unknown,
    send: Send,
  ) => {
    if (method === 'GET') {
      const policy = fake.policies.get(key);
      return policy ? send(200, policy) : send(404, { code: 'not-found', msg: 'not found' });
    }
    if (method === 'PUT') {
      exchange.putPolicy(key, body as Record<string, unknown>);
      node.lastUpdated = stamp();
      return send(201, { code: 'ok', msg: 'policy added or updated' });
    }
    if (method === 'DELETE') {
      if (!fake.policies.delete(key))
        return send(404, { code: 'not-found', msg: `policy for node '${key}' not found` });
      node.lastUpdated = stamp();
      recordChange(key, 'nodepolicies');
      return send(204);
    }
    return send(405, { code: 'method-not-allowed', msg: 'no' });
  };

  /** `GET …/msgs?maxmsgs=N&after=ID`: the oldest past `after`, at most min(N, 100); `DELETE …/msgs/{id}`. */
  const messagesRoute = (
    method: string | undefined,
    key: string,
    url: URL,
    msgId: string | undefined,
    send: Send,
  ) => {
    const box = fake.nodeMessages.get(key) ?? [];
    if (method === 'GET' && msgId === undefined) {
      const maxmsgs = url.searchParams.get('maxmsgs');
      const after = url.searchParams.get('after');
      fake.mailboxReads.push({ maxmsgs, after });
      const limit = Math.min(Number(maxmsgs) > 0 ? Number(maxmsgs) : 100, 100);
      const page = box.filter((m) => m.msgId > Number(after ?? 0)).slice(0, limit);
      return send(page.length > 0 ? 200 : 404, { messages: page, lastIndex: 0 });
    }
    if (method === 'DELETE' && msgId !== undefined) {
      const left = box.filter((m) => m.msgId !== Number(msgId));
      // As the Exchange: a message that is not there is a 404.
      if (left.length === box.length) return send(404, { code: 'not-found', msg: 'not found' });
      fake.nodeMessages.set(key, left);
      return send(204);
    }
    return send(405, { code: 'method-not-allowed', msg: 'no' });
  };

  const managementRoute = (
    method: string | undefined,
    key: string,
    policy: string | undefined,
    body: unknown,
    send: Send,
  ) => {
    const statuses = fake.managementStatuses.get(key) ?? new Map();
    const full = `${key.split('/')[0]}/${policy}`;
    if (method === 'GET') {
      const chosen = [...statuses].filter(([name]) => policy === undefined || name === full);
      return send(chosen.length ? 200 : 404, { managementStatus: Object.fromEntries(chosen), lastIndex: 0 });
    }
    if (method === 'PUT' && policy) {
      exchange.putManagementStatus(
        key,
        policy,
        (body as { agentUpgradePolicyStatus: object }).agentUpgradePolicyStatus as Record<string, unknown>,
      );
      return send(201, { code: 'ok', msg: 'status added or updated' });
    }
    if (method === 'DELETE' && policy) {
      if (!statuses.delete(full)) return send(404, { code: 'not-found', msg: 'not found' });
      recordChange(key, 'nodemgmtpolstatus');
      return send(204);
    }
    return send(405, { code: 'method-not-allowed', msg: 'no' });
  };

  let server: Server = createServer((req, res) => void handle(req, res));
  await listen(server, port);
  const bound = (server.address() as AddressInfo).port;

  const exchange: FakeExchange = {
    ...fake,
    url: `http://127.0.0.1:${bound}/v1`,
    recordChange,
    addNode(org, id, token, extra = {}) {
      fake.orgs.add(org);
      fake.nodes.set(`${org}/${id}`, {
        token,
        name: id,
        nodeType: 'device',
        pattern: '',
        arch: '',
        userInput: [],
        registeredServices: [],
        softwareVersions: {},
        ha_group: null,
        lastUpdated: stamp(),
        lastHeartbeat: null,
        ...extra,
      });
    },
    patchNode(key, attribute, value) {
      const node = fake.nodes.get(key);
      if (!node) throw new Error(`no node ${key}`);
      (node as unknown as Record<string, unknown>)[attribute] = value;
      node.lastUpdated = stamp();
      recordChange(key, 'node');
    },
    putPolicy(key, policy) {
      fake.policies.set(key, { label: '', description: '', ...policy, lastUpdated: stamp() });
      recordChange(key, 'nodepolicies');
    },
    putManagementPolicy(key, nmp) {
      if (nmp) fake.managementPolicies.set(key, { ...nmp, lastUpdated: stamp() });
      else fake.managementPolicies.delete(key);
      recordChange(key, 'mgmtpolicy');
    },
    putManagementStatus(key, policy, status) {
      const statuses = fake.managementStatuses.get(key) ?? new Map();
      fake.managementStatuses.set(key, statuses);
      const full = `${key.split('/')[0]}/${policy}`;
      const stored = {
        scheduledTime: '',
        startTime: '',
        endTime: '',
        upgradedVersions: { softwareVersion: '', certVersion: '', configVersion: '' },
        status: '',
        errorMessage: '',
        ...status,
        lastUpdated: stamp(),
      };
      statuses.set(full, { agentUpgradePolicyStatus: stored });
      recordChange(key, 'nodemgmtpolstatus');
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async restart() {
      server = createServer((req, res) => void handle(req, res));
      await listen(server, bound);
    },
    async close() {
      if (server.listening) await exchange.stop();
    },
  };
  return exchange;
}

type Send = (status: number, payload?: unknown, type?: string) => void;

function authenticate(req: IncomingMessage, nodes: Map<string, FakeNode>): string | undefined {
  const header = req.headers.authorization ?? '';
  if (!header.startsWith('Basic ')) return undefined;
  const decoded = Buffer.from(header.slice(6), 'base64').toString();
  const colon = decoded.indexOf(':');
  const who = decoded.slice(0, colon);
  return nodes.get(who)?.token === decoded.slice(colon + 1) ? who : undefined;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString();
  return text ? JSON.parse(text) : undefined;
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
}
