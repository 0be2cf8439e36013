import { describe, expect, it } from 'vitest';
import { Store } from '../store/store.ts';
import { instanceKey, linkNetworkName } from '../workloads/instance-key.ts';
import {
  addUser,
  type DependencyInstance,
  deleteInstance,
  instancesOf,
  loadInstances,
  releaseAgreement,
  saveInstance,
  shareableInstances,
  usersOf,
} from './dependency-store.ts';

const instance = (key: string, fields: Partial<DependencyInstance> = {}): DependencyInstance => ({
  instance_key: key,
  org: 'org1',
  url: 'https://example.com/dep',
  version: '1.0.0',
  arch: 'amd64',
  sharable: 'singleton',
  deployment: '{"services":{"dep":{"image":"x"}}}',
  requires: [],
  parents: [],
  instance_creation_time: 1,
  execution_start_time: 2,
  ...fields,
});

describe('dependency instance keys (upstream MakeMSInstanceKey)', () => {
  it('is <org>_<url>_<version>_<uuid>, scheme dropped, other characters as -, first character alphanumeric', () => {
    expect(instanceKey('org1', 'https://example.com/svc/gps', '1.2.3', 'u-1')).toBe(
      'org1_example.com-svc-gps_1.2.3_u-1',
    );
    expect(instanceKey('my org', 'my:svc@x', '1.0.0', 'id')).toBe('my-org_my-svc-x_1.0.0_id');
    expect(instanceKey('_org', 'svc', '1', 'id')).toBe('0org_svc_1_id');
    expect(instanceKey('', 'svc', '1', 'id')).toBe('svc_1_id');
    const generated = instanceKey('org1', 'svc', '1.0.0');
    expect(generated).toMatch(/^org1_svc_1\.0\.0_[0-9a-f-]{36}$/);
    expect(generated).not.toBe(instanceKey('org1', 'svc', '1.0.0'));
    expect(linkNetworkName('dep', 'parent')).toBe('dep_parent');
  });
});

describe('dependency instances in the agent store: reference counts', () => {
  it('keeps a shared instance while any agreement uses it and hands it back after the last', () => {
    const store = Store.memory();
    saveInstance(store, instance('shared', { parents: ['ag1'] }));
    addUser(store, 'shared', 'ag1');
    addUser(store, 'shared', 'ag2');
    addUser(store, 'shared', 'ag2'); // twice is once
    saveInstance(store, instance('shared', { parents: ['ag1', 'ag2'] }));
    expect(usersOf(store, 'shared')).toEqual(['ag1', 'ag2']);
    expect(instancesOf(store, 'ag2').map((i) => i.instance_key)).toEqual(['shared']);

    expect(releaseAgreement(store, 'ag1')).toEqual([]);
    expect(usersOf(store, 'shared')).toEqual(['ag2']);
    expect(loadInstances(store)[0]?.parents).toEqual(['ag2']);

    expect(releaseAgreement(store, 'ag2').map((i) => i.instance_key)).toEqual(['shared']);
    deleteInstance(store, 'shared');
    expect(loadInstances(store)).toEqual([]);
    store.close();
  });

  it('offers only instances that are not sharable "multiple" for reuse, oldest first', () => {
    const store = Store.memory();
    saveInstance(store, instance('m1', { sharable: 'multiple' }));
    saveInstance(store, instance('s2', { instance_creation_time: 5 }));
    saveInstance(store, instance('s1', { instance_creation_time: 3 }));
    saveInstance(store, instance('other', { version: '2.0.0' }));
    expect(
      shareableInstances(store, 'org1', 'https://example.com/dep', '1.0.0').map((i) => i.instance_key),
    ).toEqual(['s1', 's2']);
    store.close();
  });

  it('survives a restart of the agent (state on disk, not in memory)', async () => {
    const { tempDir } = await import('../test-support/harness.ts');
    const dir = tempDir();
    try {
      const first = Store.open(dir.path);
      saveInstance(first, instance('kept'));
      addUser(first, 'kept', 'ag1');
      first.close();
      const again = Store.open(dir.path);
      expect(usersOf(again, 'kept')).toEqual(['ag1']);
      again.close();
    } finally {
      dir.remove();
    }
  });
});
