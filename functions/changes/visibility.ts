import type { Caller } from '#lib/auth/caller';
import type { ChangeRow } from '#tables/changes';

/** Rows about the catalog and the org that every node may see (exchange-behavior §12, catalog §1.5). */
const NODE_VISIBLE = new Set([
  'org',
  'service',
  'servicepolicies',
  'servicekeys',
  'servicedockauths',
  'mgmtpolicy',
  'agentfileversion',
]);

/** Rows about one node: a node sees them only when they are about itself. */
const ABOUT_A_NODE = new Set([
  'node',
  'nodepolicies',
  'nodeagreements',
  'nodestatus',
  'nodeerrors',
  'nodemsgs',
  'nodemgmtpolstatus',
  'services_configstate',
]);

/** Rows agbots never see, and agreement rows they see only when deleted. */
const HIDDEN_FROM_AGBOTS = new Set(['nodemsgs', 'nodestatus']);
const AGREEMENT_ROWS = new Set(['nodeagreements', 'agbotagreements']);

/** Which change rows `caller` may read (upstream's ChangesRoutes filters, in one place). */
export function visibleTo(caller: Caller): (row: ChangeRow) => boolean {
  switch (caller.kind) {
    case 'node':
      return (row) =>
        NODE_VISIBLE.has(row.resource) ||
        (ABOUT_A_NODE.has(row.resource) && row.org === caller.org && row.id === caller.id);
    case 'agbot':
      return (row) =>
        !HIDDEN_FROM_AGBOTS.has(row.resource) &&
        !(AGREEMENT_ROWS.has(row.resource) && row.operation !== 'deleted');
    default:
      return () => true;
  }
}
