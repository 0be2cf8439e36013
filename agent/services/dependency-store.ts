/**
 * Running dependency instances and the agreements that use them (tables of store migration 3).
 * An instance lives while at least one agreement uses it: releasing an agreement hands back the
 * instances nobody uses any more, whose containers the caller then removes.
 */
import type { Store } from '../store/store.ts';

export interface DependencyInstance {
  instance_key: string;
  org: string;
  url: string;
  version: string;
  arch: string;
  sharable: string;
  /** The signed deployment it runs (verified before it started). */
  deployment: string;
  /** Instance keys of its own dependencies. */
  requires: string[];
  /** Keys of what it serves: agreement ids (top-level services) or other instances' keys. */
  parents: string[];
  instance_creation_time: number;
  execution_start_time: number;
}

interface Row {
  record: string;
}

const parse = (rows: Row[]): DependencyInstance[] =>
  rows.map((r) => JSON.parse(r.record) as DependencyInstance);

export function saveInstance(store: Store, instance: DependencyInstance): void {
  store.run(
    `INSERT INTO dependency_instances (instance_key, org, url, version, sharable, created_at, record)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (instance_key) DO UPDATE SET record = excluded.record`,
    instance.instance_key,
    instance.org,
    instance.url,
    instance.version,
    instance.sharable,
    instance.instance_creation_time,
    JSON.stringify(instance),
  );
}

export const findInstance = (store: Store, key: string): DependencyInstance | undefined =>
  parse(store.rows<Row>('SELECT record FROM dependency_instances WHERE instance_key = ?', key))[0];

export const loadInstances = (store: Store): DependencyInstance[] =>
  parse(store.rows<Row>('SELECT record FROM dependency_instances ORDER BY created_at, instance_key'));

/** Instances of this org/url/version another agreement may use (not `sharable: multiple`), oldest first. */
export const shareableInstances = (
  store: Store,
  org: string,
  url: string,
  version: string,
): DependencyInstance[] =>
  parse(
    store.rows<Row>(
      `SELECT record FROM dependency_instances
       WHERE org = ? AND url = ? AND version = ? AND sharable <> 'multiple' ORDER BY created_at, instance_key`,
      org,
      url,
      version,
    ),
  );

export function addUser(store: Store, key: string, agreementId: string): void {
  store.run(
    'INSERT OR IGNORE INTO dependency_users (instance_key, agreement_id) VALUES (?, ?)',
    key,
    agreementId,
  );
}

export const usersOf = (store: Store, key: string): string[] =>
  store
    .rows<{ agreement_id: string }>(
      'SELECT agreement_id FROM dependency_users WHERE instance_key = ? ORDER BY agreement_id',
      key,
    )
    .map((r) => r.agreement_id);

export const instancesOf = (store: Store, agreementId: string): DependencyInstance[] =>
  parse(
    store.rows<Row>(
      `SELECT i.record FROM dependency_instances i JOIN dependency_users u USING (instance_key)
       WHERE u.agreement_id = ? ORDER BY i.created_at, i.instance_key`,
      agreementId,
    ),
  );

/** Instances no agreement uses (their containers are to be removed). */
export const unusedInstances = (store: Store): DependencyInstance[] =>
  parse(
    store.rows<Row>(
      `SELECT record FROM dependency_instances i
       WHERE NOT EXISTS (SELECT 1 FROM dependency_users u WHERE u.instance_key = i.instance_key)
       ORDER BY created_at, instance_key`,
    ),
  );

/**
 * The agreement stops using its instances: returns those that no agreement uses now. The parent
 * link to the agreement goes too, so a reused instance no longer names a parent that is gone.
 */
export function releaseAgreement(store: Store, agreementId: string): DependencyInstance[] {
  return store.transaction(() => {
    for (const instance of instancesOf(store, agreementId)) {
      if (instance.parents.includes(agreementId))
        saveInstance(store, { ...instance, parents: instance.parents.filter((k) => k !== agreementId) });
    }
    store.run('DELETE FROM dependency_users WHERE agreement_id = ?', agreementId);
    return unusedInstances(store);
  });
}

/** Forgets an instance whose containers are gone. */
export function deleteInstance(store: Store, key: string): void {
  store.transaction(() => {
    store.run('DELETE FROM dependency_users WHERE instance_key = ?', key);
    store.run('DELETE FROM dependency_instances WHERE instance_key = ?', key);
  });
}
