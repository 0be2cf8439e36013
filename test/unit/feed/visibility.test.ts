import { describe, expect, it } from 'vitest';
import { agbotWokenBy, nodeWokenBy, visibleTo } from '#lib/feed/visibility';

const row = (resource: string, id = 'n1') => ({ resource, org: 'acme', id, operation: 'created/modified' });
const agbot = { org: 'acme', id: 'a1' };

describe('node status rows', () => {
  it("are read by the org's agbots (they count what runs) but wake no agbot", () => {
    expect(visibleTo({ kind: 'agbot', ...agbot })(row('nodestatus'))).toBe(true);
    expect(agbotWokenBy(agbot, row('nodestatus'))).toBe(false);
    expect(agbotWokenBy(agbot, row('nodepolicies'))).toBe(true);
  });

  it('do not wake the node that wrote them, nor do its surfaced errors; its policy still does', () => {
    expect(nodeWokenBy(row('nodestatus'))).toBeUndefined();
    expect(nodeWokenBy(row('nodeerrors'))).toBeUndefined();
    expect(nodeWokenBy(row('nodepolicies'))).toBe('acme/n1');
  });

  it("do not wake the node for its own agreement rows, only for others' writes of them", () => {
    expect(nodeWokenBy({ ...row('nodeagreements'), byItsNode: true })).toBeUndefined();
    expect(nodeWokenBy(row('nodeagreements'))).toBe('acme/n1');
    expect(
      visibleTo({ kind: 'node', org: 'acme', id: 'n1' })({ ...row('nodeagreements'), byItsNode: true }),
    ).toBe(true);
  });

  it('are still read by the node itself, and by no other node', () => {
    expect(visibleTo({ kind: 'node', org: 'acme', id: 'n1' })(row('nodestatus'))).toBe(true);
    expect(visibleTo({ kind: 'node', org: 'acme', id: 'n2' })(row('nodestatus'))).toBe(false);
  });

  it('keep node messages hidden from agbots', () => {
    expect(visibleTo({ kind: 'agbot', ...agbot })(row('nodemsgs'))).toBe(false);
  });
});
