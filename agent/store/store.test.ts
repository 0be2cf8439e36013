import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/harness.ts';
import { type NewEvent, Store } from './store.ts';

const dirs: { remove(): void }[] = [];
const open = () => {
  const dir = tempDir();
  dirs.push(dir);
  return { dir: dir.path, store: Store.open(dir.path) };
};
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

const event = (over: Partial<NewEvent> = {}): NewEvent => ({
  timestamp: 1_700_000_000,
  severity: 'info',
  message: 'Start node configuration/registration for node n1.',
  event_code: 'start_node_configuration_registration',
  source_type: 'node',
  event_source: { node_id: 'n1', node_org: 'o1', pattern: '', config_state: 'configuring' },
  ...over,
});

describe('Store', () => {
  it('keeps documents, pending marks and events across a reopen of the same dir', () => {
    const { dir, store } = open();
    store.set('node', { id: 'n1', nested: [1, { a: true }] });
    store.markPending('userInput', 5);
    store.addEvent(event());
    store.close();

    const again = Store.open(dir);
    expect(again.get('node')).toEqual({ id: 'n1', nested: [1, { a: true }] });
    expect(again.pendingKinds()).toEqual(['userInput']);
    expect(again.events(0)).toHaveLength(1);
    again.close();
  });

  it('rolls a transaction back entirely when it throws', () => {
    const { store } = open();
    store.set('a', 1);
    expect(() =>
      store.transaction(() => {
        store.set('a', 2);
        store.markPending('policy', 1);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.get('a')).toBe(1);
    expect(store.isPending('policy')).toBe(false);
    store.close();
  });

  it('deletes documents and pending marks', () => {
    const { store } = open();
    store.set('a', 'x');
    store.delete('a');
    expect(store.get('a')).toBeUndefined();
    store.markPending('userInput', 1);
    store.markPending('policy', 2);
    store.clearPending('userInput');
    expect(store.pendingKinds()).toEqual(['policy']);
    store.clearPending();
    expect(store.pendingKinds()).toEqual([]);
    store.close();
  });

  it('numbers events with string ids that are never reused, even after clearing', () => {
    const { store } = open();
    expect(store.addEvent(event()).record_id).toBe('1');
    expect(store.addEvent(event()).record_id).toBe('2');
    store.clearEvents();
    expect(store.events(0)).toEqual([]);
    expect(store.lastEventId()).toBe(2);
    expect(store.addEvent(event()).record_id).toBe('3');
    store.close();
  });

  it('returns events after an id, filtered on columns and on paths inside event_source', () => {
    const { store } = open();
    store.addEvent(event());
    store.addEvent(
      event({ severity: 'error', event_source: { node_id: 'n2', flag: true, deep: { url: 'u' } } }),
    );
    store.addEvent(event({ event_code: 'update_node_policy' }));

    expect(store.events(1).map((e) => e.record_id)).toEqual(['2', '3']);
    const errors = store.events(0, [{ field: { column: 'severity' }, test: (v) => v === 'error' }]);
    expect(errors.map((e) => e.record_id)).toEqual(['2']);
    // Booleans keep their type through json_extract; absent paths read as undefined.
    const flagged = store.events(0, [{ field: { path: ['flag'] }, test: (v) => v === true }]);
    expect(flagged.map((e) => e.record_id)).toEqual(['2']);
    const deep = store.events(0, [{ field: { path: ['deep', 'url'] }, test: (v) => v === 'u' }]);
    expect(deep.map((e) => e.record_id)).toEqual(['2']);
    const absent = store.events(0, [{ field: { path: ['nope'] }, test: (v) => v === undefined }]);
    expect(absent).toHaveLength(3);
    // record_id reads as a string, as it is shown.
    const byId = store.events(0, [{ field: { column: 'record_id' }, test: (v) => v === '3' }]);
    expect(byId[0]?.event_code).toBe('update_node_policy');
    store.close();
  });

  it('makes the database file private to the agent user (it holds the node token)', async () => {
    const { dir, store } = open();
    const { statSync } = await import('node:fs');
    expect(statSync(`${dir}/agent.db`).mode & 0o777).toBe(0o600);
    store.close();
  });
});
