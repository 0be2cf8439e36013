import { describe, expect, it } from 'vitest';
import { adminKeys } from '#tables/admin/keys';
import { agbotStateKeys } from '#tables/agbot-state/keys';
import { deploymentPolicyKeys } from '#tables/deployment-policy/keys';
import { feedKeys } from '#tables/feed/keys';
import { identityKeys } from '#tables/identity/keys';
import { agbotKeys } from '#tables/keys/agbot';
import { nodeKeys } from '#tables/keys/node';
import { orgKeys } from '#tables/keys/org';
import { userKeys } from '#tables/keys/user';
import { managementPolicyKeys } from '#tables/management-policy/keys';
import { objectKeys } from '#tables/object/keys';
import { patternKeys } from '#tables/pattern/keys';
import { rolloutKeys } from '#tables/rollout/keys';
import { secretKeys } from '#tables/secret/keys';
import { serviceKeys } from '#tables/service/keys';
import { signalKeys } from '#tables/signals/keys';

/**
 * Every key format of the table, pinned for one sample input each: stored items are found by these
 * strings, so a format may move between files but never change by one character (data written by
 * an older Exchange must still be read).
 */
const CASES: [string, unknown, unknown][] = [
  ['orgKeys.record', orgKeys.record('acme'), { pk: 'ORG#acme', sk: 'ORG' }],
  ['orgKeys.stats', orgKeys.stats('acme'), { pk: 'ORG#acme', sk: 'STATS' }],
  ['userKeys.record', userKeys.record('acme', 'alice'), { pk: 'USER#acme/alice', sk: 'USER' }],
  ['userKeys.stats', userKeys.stats('acme', 'alice'), { pk: 'USER#acme/alice', sk: 'STATS' }],
  ['nodeKeys.record', nodeKeys.record('acme', 'n1'), { pk: 'NODE#acme/n1', sk: 'NODE' }],
  ['nodeKeys.policy', nodeKeys.policy('acme', 'n1'), { pk: 'NODE#acme/n1', sk: 'POLICY' }],
  ['nodeKeys.heartbeat', nodeKeys.heartbeat('acme', 'n1'), { pk: 'NODE#acme/n1', sk: 'NODE#HEARTBEAT' }],
  ['agbotKeys.record', agbotKeys.record('acme', 'a1'), { pk: 'AGBOT#acme/a1', sk: 'AGBOT' }],
  [
    'identityKeys.principal',
    identityKeys.principal('acme', 'a1'),
    { pk: 'PRINCIPAL#acme/a1', sk: 'PRINCIPAL' },
  ],
  [
    'agbotKeys.agreement',
    agbotKeys.agreement('acme', 'a1', 'ag1'),
    { pk: 'AGBOT#acme/a1', sk: 'AGREEMENT#ag1' },
  ],
  [
    'agbotKeys.pattern',
    agbotKeys.pattern('acme', 'a1', 'other_pat'),
    { pk: 'AGBOT#acme/a1', sk: 'PATTERN#other_pat' },
  ],
  [
    'agbotKeys.policy',
    agbotKeys.policy('acme', 'a1', 'other_pol'),
    { pk: 'AGBOT#acme/a1', sk: 'BUSINESSPOL#other_pol' },
  ],
  [
    'agbotKeys.searchOffset',
    agbotKeys.searchOffset('acme', 'a1', 'other', 'pol'),
    { pk: 'AGBOT#acme/a1', sk: 'SEARCHOFFSET#other/pol' },
  ],
  ['agbotKeys.message', agbotKeys.message('acme', 'a1', 42), { pk: 'AGBOT#acme/a1', sk: 'MSG#000000000042' }],
  ['agbotKeys.token', agbotKeys.token('acme', 'a1'), { pk: 'AGBOT#acme/a1', sk: 'TOKEN' }],
  ['agbotKeys.messageSeq', agbotKeys.messageSeq('acme', 'a1'), { pk: 'AGBOT#acme/a1', sk: 'MSGSEQ' }],
  [
    'nodeKeys.managementStatus',
    nodeKeys.managementStatus('acme', 'n1', 'other/mp'),
    { pk: 'NODE#acme/n1', sk: 'MGMTSTATUS#other/mp' },
  ],
  [
    'userKeys.ownedAgbot',
    userKeys.ownedAgbot('hub', 'admin', 'acme', 'a1'),
    { pk: 'USER#hub/admin', sk: 'OWNS#AGBOT#acme/a1' },
  ],
  [
    'orgKeys.agentFileVersions',
    orgKeys.agentFileVersions('acme'),
    { pk: 'ORG#acme', sk: 'AGENTFILEVERSION' },
  ],
  ['adminKeys.dropToken', adminKeys.dropToken(), { pk: 'ADMIN', sk: 'DROPDB_TOKEN' }],
  ['identityKeys.backfilled', identityKeys.backfilled(), { pk: 'ADMIN', sk: 'PRINCIPALS_BACKFILLED' }],
  ['feedKeys.sequence', feedKeys.sequence(), { pk: 'CHANGES', sk: 'SEQ' }],
  ['feedKeys.head', feedKeys.head(), { pk: 'PENDINGCHANGES', sk: '#HEAD' }],
  [
    'serviceKeys.record',
    serviceKeys.record('acme', 'svc_1.0.0_amd64'),
    { pk: 'SERVICE#acme/svc_1.0.0_amd64', sk: 'SERVICE' },
  ],
  ['patternKeys.record', patternKeys.record('acme', 'p1'), { pk: 'PATTERN#acme/p1', sk: 'PATTERN' }],
  ['patternKeys.key', patternKeys.key('acme', 'p1', 'k.pem'), { pk: 'PATTERN#acme/p1', sk: 'KEY#k.pem' }],
  [
    'deploymentPolicyKeys.record',
    deploymentPolicyKeys.record('acme', 'dp1'),
    { pk: 'BUSINESSPOL#acme/dp1', sk: 'BUSINESSPOL' },
  ],
  [
    'nodeKeys.agreement',
    nodeKeys.agreement('acme', 'n1', 'ag1'),
    { pk: 'NODE#acme/n1', sk: 'AGREEMENT#ag1' },
  ],
  ['nodeKeys.status', nodeKeys.status('acme', 'n1'), { pk: 'NODE#acme/n1', sk: 'STATUS' }],
  ['nodeKeys.errors', nodeKeys.errors('acme', 'n1'), { pk: 'NODE#acme/n1', sk: 'ERRORS' }],
  [
    'serviceKeys.policy',
    serviceKeys.policy('acme', 'svc_1.0.0_amd64'),
    { pk: 'SERVICE#acme/svc_1.0.0_amd64', sk: 'POLICY' },
  ],
  [
    'serviceKeys.key',
    serviceKeys.key('acme', 'svc_1.0.0_amd64', 'k.pem'),
    { pk: 'SERVICE#acme/svc_1.0.0_amd64', sk: 'KEY#k.pem' },
  ],
  [
    'serviceKeys.dockAuth',
    serviceKeys.dockAuth('acme', 'svc_1.0.0_amd64', 7),
    { pk: 'SERVICE#acme/svc_1.0.0_amd64', sk: 'DOCKAUTH#000000000007' },
  ],
  [
    'serviceKeys.dockAuthSeq',
    serviceKeys.dockAuthSeq('acme', 'svc_1.0.0_amd64'),
    { pk: 'SERVICE#acme/svc_1.0.0_amd64', sk: 'DOCKAUTHSEQ' },
  ],
  [
    'serviceKeys.publicCopy',
    serviceKeys.publicCopy('acme', 'svc_1.0.0_amd64'),
    { pk: 'PUBLICSERVICES', sk: 'acme/svc_1.0.0_amd64' },
  ],
  [
    'userKeys.ownedService',
    userKeys.ownedService('hub', 'admin', 'acme', 'svc_1.0.0_amd64'),
    { pk: 'USER#hub/admin', sk: 'OWNS#SERVICE#acme/svc_1.0.0_amd64' },
  ],
  [
    'userKeys.ownedCount',
    userKeys.ownedCount('PATTERN', 'acme', 'alice'),
    { pk: 'USER#acme/alice', sk: 'PATTERNCOUNT' },
  ],
  ['patternKeys.keyPrefix', patternKeys.keyPrefix, 'KEY#'],
  ['patternKeys.publicCopy', patternKeys.publicCopy('acme', 'p1'), { pk: 'PUBLICPATTERNS', sk: 'acme/p1' }],
  ['nodeKeys.message', nodeKeys.message('acme', 'n1', 42), { pk: 'NODE#acme/n1', sk: 'MSG#000000000042' }],
  ['nodeKeys.messageSeq', nodeKeys.messageSeq('acme', 'n1'), { pk: 'NODE#acme/n1', sk: 'MSGSEQ' }],
  [
    'secretKeys.record',
    secretKeys.record('acme', 'user/alice/db'),
    { pk: 'SECRETS#acme', sk: 'user/alice/db' },
  ],
  ['signalKeys.connection', signalKeys.connection('c1'), { pk: 'SIGNAL#c1', sk: 'SIGNAL' }],
  [
    'signalKeys.nodeListener',
    signalKeys.nodeListener('acme', 'n1', 'c1'),
    { pk: 'SIGNALS#NODE#acme/n1', sk: 'c1' },
  ],
  ['signalKeys.agbotListener', signalKeys.agbotListener('c1'), { pk: 'SIGNALS#AGBOTS', sk: 'c1' }],
  ['signalKeys.nodePartition', signalKeys.nodePartition('acme', 'n1'), 'SIGNALS#NODE#acme/n1'],
  ['signalKeys.agbotPartition', signalKeys.agbotPartition, 'SIGNALS#AGBOTS'],
  ['agbotStateKeys.partition', agbotStateKeys.partition('acme', 'a1'), 'AGBOTSTATE#acme/a1'],
  ['agbotStateKeys.sealedKeysIndex', agbotStateKeys.sealedKeysIndex, 'AGBOTSTATEKEYS'],
  [
    'agbotStateKeys.messagingKey',
    agbotStateKeys.messagingKey('acme', 'a1'),
    { pk: 'AGBOTSTATE#acme/a1', sk: 'KEY' },
  ],
  [
    'agbotStateKeys.feedCursor',
    agbotStateKeys.feedCursor('acme', 'a1'),
    { pk: 'AGBOTSTATE#acme/a1', sk: 'CURSOR' },
  ],
  [
    'agbotStateKeys.liveAgreement',
    agbotStateKeys.liveAgreement('acme', 'a1', 'ag1'),
    { pk: 'AGBOTSTATE#acme/a1', sk: 'LIVE#ag1' },
  ],
  [
    'agbotStateKeys.archivedAgreement',
    agbotStateKeys.archivedAgreement('acme', 'a1', 'ag1'),
    { pk: 'AGBOTSTATE#acme/a1', sk: 'ARCHIVED#ag1' },
  ],
  [
    'agbotStateKeys.liveGuard',
    agbotStateKeys.liveGuard('acme', 'a1', 'acme/p#1', 'acme/n1'),
    { pk: 'AGBOTSTATE#acme/a1', sk: 'GUARD#"acme/p#1"#acme/n1' },
  ],
  [
    'agbotStateKeys.endedAgreements',
    agbotStateKeys.endedAgreements('acme', 'a1', 'acme/p#1', 'acme/n1'),
    { pk: 'AGBOTSTATE#acme/a1', sk: 'ENDED#"acme/p#1"#acme/n1' },
  ],
  [
    'agbotStateKeys.search',
    agbotStateKeys.search('acme', 'a1', 'acme/p#1'),
    { pk: 'AGBOTSTATE#acme/a1', sk: 'SEARCH#acme/p#1' },
  ],
  [
    'agbotStateKeys.revisit',
    agbotStateKeys.revisit('acme', 'a1', 'acme/p#1', 'acme/n1'),
    { pk: 'AGBOTSTATE#acme/a1', sk: 'REVISIT#"acme/p#1"#acme/n1' },
  ],
  [
    'agbotStateKeys.policyStatus',
    agbotStateKeys.policyStatus('acme', 'a1', 'acme/p#1'),
    { pk: 'AGBOTSTATE#acme/a1', sk: 'STATUS#acme/p#1' },
  ],
  ['agbotStateKeys.statusPrefix', agbotStateKeys.statusPrefix, 'STATUS#'],
  ['agbotStateKeys.statusOfOrgPrefix', agbotStateKeys.statusOfOrgPrefix('acme'), 'STATUS#acme/'],
  [
    'agbotStateKeys.liveOfOrgIndex',
    agbotStateKeys.liveOfOrgIndex('IBM', 'agbot', 'acme'),
    'AGBOTLIVE#IBM/agbot#acme',
  ],
  ['agbotStateKeys.livePrefix', agbotStateKeys.livePrefix, 'LIVE#'],
  ['agbotStateKeys.archivedPrefix', agbotStateKeys.archivedPrefix, 'ARCHIVED#'],
  ['agbotStateKeys.revisitPrefix', agbotStateKeys.revisitPrefix('acme/p#1'), 'REVISIT#"acme/p#1"#'],
  [
    'agbotStateKeys.rollout',
    agbotStateKeys.rollout('acme', 'a1', 'acme/p#1'),
    { pk: 'AGBOTSTATE#acme/a1', sk: 'ROLLOUT#acme/p#1' },
  ],
  [
    'agbotStateKeys.rolloutNode',
    agbotStateKeys.rolloutNode('acme', 'a1', 'acme/p#1', 'acme/n1'),
    { pk: 'AGBOTSTATE#acme/a1', sk: 'RNODE#"acme/p#1"#acme/n1' },
  ],
  ['agbotStateKeys.rolloutNodePrefix', agbotStateKeys.rolloutNodePrefix('acme/p#1'), 'RNODE#"acme/p#1"#'],
  ['rolloutKeys.plan', rolloutKeys.plan('acme', 'web'), { pk: 'BUSINESSPOL#acme/web', sk: 'ROLLOUT' }],
  [
    'rolloutKeys.status',
    rolloutKeys.status('acme', 'web', 'IBM/agbot'),
    { pk: 'BUSINESSPOL#acme/web', sk: 'ROLLOUTSTATUS#IBM/agbot' },
  ],
  ['rolloutKeys.statusPrefix', rolloutKeys.statusPrefix, 'ROLLOUTSTATUS#'],
  [
    'feedKeys.pending',
    feedKeys.pending('2024-01-01T00:00:00.000Z#x'),
    { pk: 'PENDINGCHANGES', sk: '2024-01-01T00:00:00.000Z#x' },
  ],
  ['feedKeys.ofOrg', feedKeys.ofOrg('acme', 12), { pk: 'CHANGES#acme', sk: '0000000000000012' }],
  ['feedKeys.ofAll', feedKeys.ofAll(12), { pk: 'ALLCHANGES', sk: '0000000000000012' }],
  ['feedKeys.ofPublic', feedKeys.ofPublic(12), { pk: 'PUBLICCHANGES', sk: '0000000000000012' }],
  ['feedKeys.sortKeyFrom', feedKeys.sortKeyFrom(-3), '0000000000000000'],
  ['feedKeys.ofNode', feedKeys.ofNode('acme', 'n1', 12), { pk: 'NODEFEED#acme/n1', sk: '0000000000000012' }],
  ['feedKeys.ofNodesShared', feedKeys.ofNodesShared(12), { pk: 'NODESFEED', sk: '0000000000000012' }],
  ['feedKeys.nodePartition', feedKeys.nodePartition('acme', 'n1'), 'NODEFEED#acme/n1'],
  ['feedKeys.nodesSharedPartition', feedKeys.nodesSharedPartition, 'NODESFEED'],
  ['feedKeys.pendingPartition', feedKeys.pendingPartition, 'PENDINGCHANGES'],
  ['feedKeys.orgPartition', feedKeys.orgPartition('acme'), 'CHANGES#acme'],
  ['feedKeys.allPartition', feedKeys.allPartition, 'ALLCHANGES'],
  ['feedKeys.publicPartition', feedKeys.publicPartition, 'PUBLICCHANGES'],
  ['orgKeys.allIndex', orgKeys.allIndex, 'ORGS'],
  ['orgKeys.allStatsIndex', orgKeys.allStatsIndex, 'STATS'],
  ['userKeys.orgIndex', userKeys.orgIndex('acme'), 'ORG#acme#USERS'],
  ['nodeKeys.orgIndex', nodeKeys.orgIndex('acme'), 'ORG#acme#NODES'],
  [
    'nodeKeys.orgIndexAfter',
    nodeKeys.orgIndexAfter('acme', 'n1'),
    { pk: 'NODE#acme/n1', sk: 'NODE', gsi1pk: 'ORG#acme#NODES', gsi1sk: 'n1' },
  ],
  ['agbotKeys.orgIndex', agbotKeys.orgIndex('acme'), 'ORG#acme#AGBOTS'],
  ['serviceKeys.orgIndex', serviceKeys.orgIndex('acme'), 'ORG#acme#SERVICES'],
  ['patternKeys.orgIndex', patternKeys.orgIndex('acme'), 'ORG#acme#PATTERNS'],
  ['nodeKeys.searchIndex', nodeKeys.searchIndex('acme', 'acme/p1'), 'SEARCH#acme#acme/p1'],
  [
    'nodeKeys.searchSort',
    nodeKeys.searchSort('2024-01-01T00:00:00.000Z', 'n1'),
    '2024-01-01T00:00:00.000Z#n1',
  ],
  ['deploymentPolicyKeys.orgIndex', deploymentPolicyKeys.orgIndex('acme'), 'ORG#acme#BUSINESSPOLS'],
  [
    'managementPolicyKeys.record',
    managementPolicyKeys.record('acme', 'nmp1'),
    { pk: 'MGMTPOL#acme/nmp1', sk: 'MGMTPOL' },
  ],
  ['objectKeys.record', objectKeys.record('IBM', 't-1', 'f'), { pk: 'OBJECT#IBM/t-1/f', sk: 'OBJECT' }],
  ['objectKeys.orgIndex', objectKeys.orgIndex('IBM'), 'ORG#IBM#OBJECTS'],
  ['objectKeys.sortKey', objectKeys.sortKey('t-1', 'f'), 't-1/f'],
  ['managementPolicyKeys.orgIndex', managementPolicyKeys.orgIndex('acme'), 'ORG#acme#MGMTPOLS'],
  [
    'managementPolicyKeys.statusIndex',
    managementPolicyKeys.statusIndex('acme/nmp1'),
    'MGMTPOL#acme/nmp1#STATUSES',
  ],
  ['agbotKeys.agreementByIdIndex', agbotKeys.agreementByIdIndex('ag1'), 'AGREEMENT#ag1'],
  ['agbotKeys.sentNodeMessagesIndex', agbotKeys.sentNodeMessagesIndex('acme', 'a1'), 'NODEMSGS#acme/a1'],
  ['secretKeys.nodeIndex', secretKeys.nodeIndex('acme', 'n1'), 'ORG#acme#NODE#n1#SECRETS'],
  ['serviceKeys.childPrefix', serviceKeys.childPrefix, { key: 'KEY#', dockAuth: 'DOCKAUTH#' }],
  ['userKeys.ownedServicePrefix', userKeys.ownedServicePrefix, 'OWNS#SERVICE#'],
  ['serviceKeys.publicPartition', serviceKeys.publicPartition, 'PUBLICSERVICES'],
  ['patternKeys.publicPartition', patternKeys.publicPartition, 'PUBLICPATTERNS'],
  [
    'agbotKeys.childPrefix',
    agbotKeys.childPrefix,
    { agreement: 'AGREEMENT#', pattern: 'PATTERN#', policy: 'BUSINESSPOL#', message: 'MSG#' },
  ],
  ['userKeys.ownedAgbotPrefix', userKeys.ownedAgbotPrefix, 'OWNS#AGBOT#'],
  [
    'nodeKeys.childPrefix',
    nodeKeys.childPrefix,
    { managementStatus: 'MGMTSTATUS#', agreement: 'AGREEMENT#' },
  ],
];

/** Every key builder and constant, so a new one must be pinned here too. */
const CHARTS: Record<string, Record<string, unknown>> = {
  orgKeys,
  userKeys,
  nodeKeys,
  agbotKeys,
  identityKeys,
  serviceKeys,
  patternKeys,
  deploymentPolicyKeys,
  rolloutKeys,
  managementPolicyKeys,
  objectKeys,
  secretKeys,
  feedKeys,
  signalKeys,
  agbotStateKeys,
  adminKeys,
};

describe('the key formats', () => {
  it.each(CASES)('%s', (_, actual, expected) => {
    expect(actual).toEqual(expected);
  });

  it('pins every key builder and constant', () => {
    const names = Object.entries(CHARTS).flatMap(([chart, members]) =>
      Object.keys(members).map((member) => `${chart}.${member}`),
    );
    expect(CASES.map(([name]) => name).sort()).toEqual(names.sort());
  });
});
