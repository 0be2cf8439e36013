import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../store/store.ts';
import { tempDir } from '../test-support/harness.ts';
import { loadAgreements, newAgreement, saveAgreement } from './store.ts';
import { maskSecrets } from './view.ts';

const dirs: { remove(): void }[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

describe('agreement store', () => {
  it('adds, replaces by id and keeps agreements across a reopen', () => {
    const dir = tempDir();
    dirs.push(dir);
    const store = Store.open(dir.path);
    saveAgreement(store, newAgreement('a1', { agreement_creation_time: 1 }));
    saveAgreement(store, newAgreement('a2'));
    saveAgreement(store, newAgreement('a1', { agreement_creation_time: 2 }));
    store.close();
    const again = Store.open(dir.path);
    expect(loadAgreements(again).map((a) => [a.current_agreement_id, a.agreement_creation_time])).toEqual([
      ['a2', 0],
      ['a1', 2],
    ]);
    again.close();
  });

  it('masks secret values only, at any depth and inside JSON text, leaving other text as it was', () => {
    expect(maskSecrets('not json')).toBe('not json');
    expect(maskSecrets('{ "a": 1 }')).toBe('{ "a": 1 }');
    const nested = {
      p: JSON.stringify({ x: [{ secretDetails: [{ secrets: [{ a: 'S1' }, { b: 'S2' }], url: 'u' }] }] }),
    };
    const masked = maskSecrets(nested) as { p: string };
    expect(JSON.parse(masked.p)).toEqual({
      x: [{ secretDetails: [{ secrets: [{ a: '********' }, { b: '********' }], url: 'u' }] }],
    });
  });
});
