import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import {
  type AgbotAgreement,
  type AgbotStore,
  type CursorOutcome,
  type EndedAgreement,
  endedAgreementOf,
  type PolicyStatus,
  type SaveOutcome,
  type SearchState,
} from '#lib/agbot-store/contract';
import type { RolloutNode, RolloutRecord } from '#lib/rollout/states';
import { migrate } from '#lib/sqlite/migrate';

const MIGRATIONS = [
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
   CREATE TABLE agreements (
     agreement_id TEXT PRIMARY KEY,
     node_org TEXT NOT NULL,
     node_id TEXT NOT NULL,
     policy TEXT NOT NULL,
     service TEXT NOT NULL,
     state TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     archived INTEGER NOT NULL DEFAULT 0,
     terminated_reason INTEGER,
     terminated_description TEXT
   ) STRICT;
   -- A node has at most one live agreement per service: the round looks it up before proposing.
   CREATE INDEX agreements_by_node ON agreements (node_org, node_id, archived);`,
  `ALTER TABLE agreements ADD COLUMN details TEXT;
   CREATE INDEX agreements_by_policy ON agreements (policy, archived);
   CREATE TABLE searches (
     policy TEXT PRIMARY KEY,
     changed_since INTEGER NOT NULL,
     session TEXT,
     full_scan_at INTEGER NOT NULL
   ) STRICT;`,
  // Pattern agreements (docs/agbot.md "Patterns"): NULL for a deployment policy's.
  `ALTER TABLE agreements ADD COLUMN pattern TEXT;`,
  // Nodes a policy's next search looks at again whatever the search state says (revisit()).
  `CREATE TABLE revisits (policy TEXT NOT NULL, node TEXT NOT NULL, PRIMARY KEY (policy, node)) STRICT;`,
  // Per served policy, what its searches saw (docs/agbot.md "Status"): one JSON row per policy.
  `CREATE TABLE policy_status (policy TEXT PRIMARY KEY, status TEXT NOT NULL) STRICT;`,
  // Staged rollouts (docs/rollouts.md): one JSON row per policy's rollout and per targeted node.
  `CREATE TABLE rollouts (policy TEXT PRIMARY KEY, record TEXT NOT NULL) STRICT;
   CREATE TABLE rollout_nodes (
     policy TEXT NOT NULL, node TEXT NOT NULL, position INTEGER NOT NULL, row TEXT NOT NULL,
     PRIMARY KEY (policy, node)
   ) STRICT;`,
];

interface AgreementRow {
  agreement_id: string;
  node_org: string;
  node_id: string;
  policy: string;
  service: string;
  state: string;
  created_at: number;
  updated_at: number;
  archived: number;
  terminated_reason: number | null;
  terminated_description: string | null;
  details: string | null;
  pattern: string | null;
}

/** Meta keys: the names are those of the files written before the store became an interface. */
const PRIVATE_KEY = 'messagingPrivateKey';
const CURSOR = 'feedCursor';

/**
 * The standalone agbot's state: one SQLite file under its data dir (mode 0600: it holds the
 * messaging private key, as anax keeps its keys in files only its user reads). The calls are
 * synchronous underneath; the conditional writes run in `BEGIN IMMEDIATE` transactions, so two
 * processes on one file are held to the same rules as two rounds on DynamoDB.
 */
export class SqliteAgbotStore implements AgbotStore {
  private constructor(private readonly db: DatabaseSync) {
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000;');
    migrate(db, MIGRATIONS);
  }

  static open(dir: string): SqliteAgbotStore {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, 'agbot.db');
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
    const store = new SqliteAgbotStore(new DatabaseSync(file));
    chmodSync(file, 0o600);
    return store;
  }

  async close(): Promise<void> {
    if (this.db.isOpen) this.db.close();
  }

  async messagingKey(): Promise<string | undefined> {
    return this.getMeta(PRIVATE_KEY);
  }

  async keepMessagingKey(pem: string): Promise<string> {
    this.db
      .prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING')
      .run(PRIVATE_KEY, pem);
    return this.getMeta(PRIVATE_KEY) as string;
  }

  async feedCursor(): Promise<number | undefined> {
    const stored = this.getMeta(CURSOR);
    return stored === undefined ? undefined : Number(stored);
  }

  async advanceFeedCursor(expected: number | undefined, next: number): Promise<CursorOutcome> {
    return this.immediate(() => {
      const stored = this.getMeta(CURSOR);
      if ((stored === undefined ? undefined : Number(stored)) !== expected) return 'moved';
      this.db
        .prepare(
          'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        )
        .run(CURSOR, String(next));
      return 'advanced';
    });
  }

  async saveAgreement(agreement: AgbotAgreement): Promise<SaveOutcome> {
    return this.immediate(() => {
      const stored = this.db
        .prepare('SELECT archived FROM agreements WHERE agreement_id = ?')
        .get(agreement.agreementId) as { archived: number } | undefined;
      if (stored?.archived === 1) return 'archived';
      if (!agreement.archived && this.otherLiveAgreement(agreement)) return 'live-agreement-exists';
      this.upsert(agreement);
      return 'saved';
    });
  }

  async updateLiveAgreements(agreements: AgbotAgreement[]): Promise<SaveOutcome[]> {
    return this.immediate(() =>
      agreements.map((agreement) => {
        const stored = this.db
          .prepare('SELECT archived FROM agreements WHERE agreement_id = ?')
          .get(agreement.agreementId) as { archived: number } | undefined;
        if (stored?.archived !== 0 || agreement.archived) return 'archived';
        this.upsert(agreement);
        return 'saved';
      }),
    );
  }

  async getAgreement(agreementId: string): Promise<AgbotAgreement | undefined> {
    const row = this.db.prepare('SELECT * FROM agreements WHERE agreement_id = ?').get(agreementId) as
      | AgreementRow
      | undefined;
    return row ? fromRow(row) : undefined;
  }

  async getAgreements(agreementIds: string[]): Promise<Map<string, AgbotAgreement>> {
    const found = new Map<string, AgbotAgreement>();
    for (const id of agreementIds) {
      const agreement = await this.getAgreement(id);
      if (agreement) found.set(id, agreement);
    }
    return found;
  }

  async listAgreements(archived: boolean): Promise<AgbotAgreement[]> {
    const rows = this.db
      .prepare('SELECT * FROM agreements WHERE archived = ? ORDER BY created_at, agreement_id')
      .all(archived ? 1 : 0) as unknown as AgreementRow[];
    return rows.map(fromRow);
  }

  async endedAgreements(nodeOrg: string, nodeId: string, policy: string): Promise<EndedAgreement[]> {
    const rows = this.db
      .prepare(
        `SELECT * FROM agreements WHERE node_org = ? AND node_id = ? AND archived = 1 AND policy = ?
         ORDER BY updated_at, agreement_id`,
      )
      .all(nodeOrg, nodeId, policy) as unknown as AgreementRow[];
    return rows.map((row) => endedAgreementOf(fromRow(row)));
  }

  async liveAgreementNodes(policy: string, nodes: string[]): Promise<Set<string>> {
    return new Set(
      nodes.filter((node) => {
        const at = node.indexOf('/');
        return this.liveAgreementId(node.slice(0, at), node.slice(at + 1), policy) !== undefined;
      }),
    );
  }

  async getSearch(policy: string): Promise<SearchState | undefined> {
    const row = this.db.prepare('SELECT * FROM searches WHERE policy = ?').get(policy) as
      | { changed_since: number; session: string | null; full_scan_at: number }
      | undefined;
    if (!row) return undefined;
    return {
      changedSince: row.changed_since,
      fullScanAt: row.full_scan_at,
      ...(row.session === null ? {} : { session: row.session }),
    };
  }

  async setSearch(policy: string, state: SearchState): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO searches (policy, changed_since, session, full_scan_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (policy) DO UPDATE SET changed_since = excluded.changed_since, session = excluded.session,
           full_scan_at = excluded.full_scan_at`,
      )
      .run(policy, state.changedSince, state.session ?? null, state.fullScanAt);
  }

  async revisit(policy: string, node: string): Promise<void> {
    this.db.prepare('INSERT OR IGNORE INTO revisits (policy, node) VALUES (?, ?)').run(policy, node);
  }

  async revisits(policy: string): Promise<string[]> {
    const rows = this.db.prepare('SELECT node FROM revisits WHERE policy = ?').all(policy) as {
      node: string;
    }[];
    return rows.map((r) => r.node);
  }

  async revisited(policy: string, nodes: string[]): Promise<void> {
    const remove = this.db.prepare('DELETE FROM revisits WHERE policy = ? AND node = ?');
    for (const node of nodes) remove.run(policy, node);
  }

  async policyStatus(policy: string): Promise<PolicyStatus | undefined> {
    const row = this.db.prepare('SELECT status FROM policy_status WHERE policy = ?').get(policy) as
      | { status: string }
      | undefined;
    return row ? (JSON.parse(row.status) as PolicyStatus) : undefined;
  }

  async savePolicyStatus(status: PolicyStatus): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO policy_status (policy, status) VALUES (?, ?)
         ON CONFLICT (policy) DO UPDATE SET status = excluded.status`,
      )
      .run(status.policy, JSON.stringify(status));
  }

  async policyStatuses(): Promise<PolicyStatus[]> {
    const rows = this.db.prepare('SELECT status FROM policy_status ORDER BY policy').all() as {
      status: string;
    }[];
    return rows.map((row) => JSON.parse(row.status) as PolicyStatus);
  }

  async dropPolicyStatus(policy: string): Promise<void> {
    this.db.prepare('DELETE FROM policy_status WHERE policy = ?').run(policy);
  }

  async rollout(policy: string): Promise<RolloutRecord | undefined> {
    const row = this.db.prepare('SELECT record FROM rollouts WHERE policy = ?').get(policy) as
      | { record: string }
      | undefined;
    return row && (JSON.parse(row.record) as RolloutRecord);
  }

  async saveRollout(record: RolloutRecord): Promise<void> {
    this.db
      .prepare(
        'INSERT INTO rollouts (policy, record) VALUES (?, ?) ON CONFLICT (policy) DO UPDATE SET record = excluded.record',
      )
      .run(record.policy, JSON.stringify(record));
  }

  async rolloutNodes(policy: string): Promise<RolloutNode[]> {
    const rows = this.db
      .prepare('SELECT row FROM rollout_nodes WHERE policy = ? ORDER BY position, node')
      .all(policy) as { row: string }[];
    return rows.map((r) => JSON.parse(r.row) as RolloutNode);
  }

  async saveRolloutNodes(nodes: RolloutNode[]): Promise<void> {
    const put = this.db.prepare(
      `INSERT INTO rollout_nodes (policy, node, position, row) VALUES (?, ?, ?, ?)
       ON CONFLICT (policy, node) DO UPDATE SET position = excluded.position, row = excluded.row`,
    );
    this.immediate(() => {
      for (const n of nodes) put.run(n.policy, n.node, n.order, JSON.stringify(n));
    });
  }

  async dropRolloutNodes(policy: string): Promise<void> {
    this.db.prepare('DELETE FROM rollout_nodes WHERE policy = ?').run(policy);
  }

  private getMeta(key: string): string | undefined {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as
      | { value: string }
      | undefined;
    return row?.value;
  }

  private liveAgreementId(nodeOrg: string, nodeId: string, policy: string): string | undefined {
    const row = this.db
      .prepare(
        'SELECT agreement_id FROM agreements WHERE node_org = ? AND node_id = ? AND archived = 0 AND policy = ? LIMIT 1',
      )
      .get(nodeOrg, nodeId, policy) as { agreement_id: string } | undefined;
    return row?.agreement_id;
  }

  private otherLiveAgreement(agreement: AgbotAgreement): boolean {
    const live = this.liveAgreementId(agreement.nodeOrg, agreement.nodeId, agreement.policy);
    return live !== undefined && live !== agreement.agreementId;
  }

  /** Runs `work` in a write transaction taken at once, so a check and its write see no one between. */
  private immediate<T>(work: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  private upsert(agreement: AgbotAgreement): void {
    this.db
      .prepare(
        `INSERT INTO agreements (agreement_id, node_org, node_id, policy, service, state, created_at, updated_at,
           archived, terminated_reason, terminated_description, details, pattern)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (agreement_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at,
           archived = excluded.archived, terminated_reason = excluded.terminated_reason,
           terminated_description = excluded.terminated_description, details = excluded.details`,
      )
      .run(
        agreement.agreementId,
        agreement.nodeOrg,
        agreement.nodeId,
        agreement.policy,
        JSON.stringify(agreement.service),
        agreement.state,
        agreement.createdAt,
        agreement.updatedAt,
        agreement.archived ? 1 : 0,
        agreement.terminatedReason ?? null,
        agreement.terminatedDescription ?? null,
        agreement.details ? JSON.stringify(agreement.details) : null,
        agreement.pattern ?? null,
      );
  }
}

function fromRow(row: AgreementRow): AgbotAgreement {
  return {
    agreementId: row.agreement_id,
    nodeOrg: row.node_org,
    nodeId: row.node_id,
    policy: row.policy,
    service: JSON.parse(row.service),
    state: row.state,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    archived: row.archived === 1,
    ...(row.terminated_reason === null ? {} : { terminatedReason: row.terminated_reason }),
    ...(row.terminated_description === null ? {} : { terminatedDescription: row.terminated_description }),
    ...(row.details === null ? {} : { details: JSON.parse(row.details) }),
    ...(row.pattern === null ? {} : { pattern: row.pattern }),
  };
}
