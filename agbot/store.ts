import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { migrate } from '#lib/sqlite/migrate';

/** An agreement as the agbot keeps it (docs/protocol.md#agreement-rows-and-states states, docs/protocol.md#reason-codes reasons). */
export interface AgbotAgreement {
  agreementId: string;
  nodeOrg: string;
  nodeId: string;
  /** `<org>/<name>` of the deployment policy, or `<pattern org>/<internal name>` of the pattern service, that led to it. */
  policy: string;
  /** `<org>/<pattern>` for a pattern agreement (governance finds it by this); absent for a policy's. */
  pattern?: string;
  service: { org: string; url: string; version: string; arch: string };
  state: string;
  createdAt: number;
  updatedAt: number;
  archived: boolean;
  terminatedReason?: number;
  terminatedDescription?: string;
  /** What the round needs later (names of bound secrets, never values; timers). */
  details?: AgreementDetails;
}

/** Per-agreement protocol bookkeeping, kept as JSON beside the row (no secret value in it). */
export interface AgreementDetails {
  /** Seconds without a reply before cancel 201 (docs/protocol.md#timeouts). */
  protocolTimeoutS: number;
  /** Bound secrets of the agreement's service: the secrets-manager names tried, in order. */
  secrets: { serviceSecret: string; candidates: string[]; bindingIndex: number }[];
  /** When the proposal went out (ms); undefined while it is being sent. */
  proposedAt?: number;
  repliedAt?: number;
  secretsUpdatedAt?: number;
  secretsAckedAt?: number;
}

/** One served policy's search state (docs/protocol.md#searching-for-candidates search session). */
export interface SearchState {
  /** Epoch seconds: nodes changed since then are searched; 0 = every node. */
  changedSince: number;
  /** The paging session of an unfinished search, else undefined. */
  session?: string;
  /** When the last full search (changedSince 0) started, ms. */
  fullScanAt: number;
}

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

/**
 * The agbot's state: one SQLite file under its data dir (mode 0600: it holds the messaging
 * private key, as anax keeps its keys in files only its user reads). Every call is synchronous.
 */
export class AgbotStore {
  private constructor(private readonly db: DatabaseSync) {
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000;');
    migrate(db, MIGRATIONS);
  }

  static open(dir: string): AgbotStore {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, 'agbot.db');
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
    const store = new AgbotStore(new DatabaseSync(file));
    chmodSync(file, 0o600);
    return store;
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  getMeta(key: string): string | undefined {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as
      | { value: string }
      | undefined;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.db
      .prepare(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      )
      .run(key, value);
  }

  saveAgreement(agreement: AgbotAgreement): void {
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

  /** The live agreement of a node under a policy, if any: the round never proposes twice. */
  activeAgreementWith(nodeOrg: string, nodeId: string, policy: string): AgbotAgreement | undefined {
    const row = this.db
      .prepare(
        'SELECT * FROM agreements WHERE node_org = ? AND node_id = ? AND archived = 0 AND policy = ? LIMIT 1',
      )
      .get(nodeOrg, nodeId, policy) as AgreementRow | undefined;
    return row ? fromRow(row) : undefined;
  }

  getSearch(policy: string): SearchState | undefined {
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

  setSearch(policy: string, state: SearchState): void {
    this.db
      .prepare(
        `INSERT INTO searches (policy, changed_since, session, full_scan_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (policy) DO UPDATE SET changed_since = excluded.changed_since, session = excluded.session,
           full_scan_at = excluded.full_scan_at`,
      )
      .run(policy, state.changedSince, state.session ?? null, state.fullScanAt);
  }

  /**
   * Marks a node for its policy's next search. A node that ends an agreement may have changed
   * before the agbot read the cancel: the search that saw the change skipped it (the agreement was
   * still live) and moved past it, so without this the node would wait for the full rescan.
   */
  revisit(policy: string, node: string): void {
    this.db.prepare('INSERT OR IGNORE INTO revisits (policy, node) VALUES (?, ?)').run(policy, node);
  }

  /** The nodes marked for the policy's next search (`<org>/<id>`). */
  revisits(policy: string): string[] {
    const rows = this.db.prepare('SELECT node FROM revisits WHERE policy = ?').all(policy) as {
      node: string;
    }[];
    return rows.map((r) => r.node);
  }

  /** The nodes looked at again: unmarked. */
  revisited(policy: string, nodes: string[]): void {
    const remove = this.db.prepare('DELETE FROM revisits WHERE policy = ? AND node = ?');
    for (const node of nodes) remove.run(policy, node);
  }

  /** Forgets every search state: the next searches are full ones. */
  resetSearches(): void {
    this.db.exec('DELETE FROM searches');
  }

  getAgreement(agreementId: string): AgbotAgreement | undefined {
    const row = this.db.prepare('SELECT * FROM agreements WHERE agreement_id = ?').get(agreementId) as
      | AgreementRow
      | undefined;
    return row ? fromRow(row) : undefined;
  }

  /** Active agreements first, then archived ones, each oldest first. */
  listAgreements(archived: boolean): AgbotAgreement[] {
    const rows = this.db
      .prepare('SELECT * FROM agreements WHERE archived = ? ORDER BY created_at, agreement_id')
      .all(archived ? 1 : 0) as unknown as AgreementRow[];
    return rows.map(fromRow);
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
