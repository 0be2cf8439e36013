import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../store/store.ts';
import { tempDir } from '../test-support/harness.ts';
import { canonical } from './attributes.ts';
import { checkMappings, mergeMappings } from './mappings.ts';
import { type Attribute, appliesTo, loadAttributes, saveAttributes } from './store.ts';
import { attributeInConfig, maskedMappings } from './view.ts';

const dirs: { remove(): void }[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

const attribute = (over: Partial<Attribute> = {}): Attribute => ({
  id: 'a1',
  type: 'UserInputAttributes',
  label: 'l',
  publishable: true,
  host_only: false,
  service_specs: [],
  mappings: {},
  ...over,
});

describe('attribute store', () => {
  it('keeps attributes (secrets in clear) across a reopen', () => {
    const dir = tempDir();
    dirs.push(dir);
    const store = Store.open(dir.path);
    const docker = attribute({
      type: 'DockerRegistryAuthAttributes',
      mappings: { auths: [{ registry: 'r', username: 'token', token: 'T' }] },
    });
    saveAttributes(store, [docker]);
    store.close();
    const again = Store.open(dir.path);
    expect(loadAttributes(again)).toEqual([docker]);
    again.close();
  });

  it('applies an attribute to every service without specs, else to the services named', () => {
    expect(appliesTo(attribute(), 'o', 'u')).toBe(true);
    const scoped = attribute({ service_specs: [{ url: 'u', organization: 'o' }] });
    expect(appliesTo(scoped, 'o', 'u')).toBe(true);
    expect(appliesTo(scoped, 'x', 'u')).toBe(false);
    expect(appliesTo(attribute({ service_specs: [{ url: 'u', organization: '' }] }), 'x', 'u')).toBe(true);
  });

  it('normalizes and masks per type', () => {
    expect(
      checkMappings(
        'DockerRegistryAuthAttributes',
        { auths: [{ registry: 'r', token: 't', username: '' }] },
        'm',
      ),
    ).toEqual({
      auths: [{ registry: 'r', username: 'token', token: 't' }],
    });
    expect(checkMappings('MeteringAttributes', {}, 'm')).toEqual({
      tokens: 0,
      perTimeUnit: '',
      notificationInterval: 0,
    });
    const basic = attribute({
      type: 'HTTPSBasicAuthAttributes',
      mappings: { url: 'u', username: 'n', password: '' },
    });
    expect(maskedMappings(basic)).toEqual({ url: 'u', username: 'n', password: '' });
    expect(attributeInConfig(basic).meta).toEqual({
      id: 'a1',
      type: 'HTTPSBasicAuthAttributes',
      label: 'l',
      host_only: false,
      publishable: true,
    });
  });

  it('merges patches key by key', () => {
    expect(mergeMappings('UserInputAttributes', { a: 1, b: 2 }, { b: 3, c: 4 })).toEqual({
      a: 1,
      b: 3,
      c: 4,
    });
    expect(canonical({ b: 1, a: { d: 1, c: 2 } })).toBe(canonical({ a: { c: 2, d: 1 }, b: 1 }));
  });
});
