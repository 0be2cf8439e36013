import { describe, expect, it } from 'vitest';
import {
  agbotChildPrefix,
  agbotStateKeys,
  changeRowKeys,
  indexKeys,
  keys,
  nodeChildPrefix,
  ownedAgbotPrefix,
  ownedServicePrefix,
  publicPatternsPartition,
  publicServicesPartition,
  serviceChildPrefix,
  signalKeys,
} from '#tables/keys';

/**
 * Every key format of the table, pinned for one sample input each: stored items are found by these
 * strings, so a format may move between files but never change by one character (data written by
 * an older Exchange must still be read).
 */
const CASES: [string, unknown, unknown][] = [
  ['keys.org', keys.org('acme'), { pk: 'ORG#acme', sk: 'ORG' }],
  ['keys.orgStats', keys.orgStats('acme'), { pk: 'ORG#acme', sk: 'STATS' }],
  ['keys.user', keys.user('acme', 'alice'), { pk: 'USER#acme/alice', sk: 'USER' }],
  ['keys.node', keys.node('acme', 'n1'), { pk: 'NODE#acme/n1', sk: 'NODE' }],
  ['keys.nodePolicy', keys.nodePolicy('acme', 'n1'), { pk: 'NODE#acme/n1', sk: 'POLICY' }],
  ['keys.nodeHeartbeat', keys.nodeHeartbeat('acme', 'n1'), { pk: 'NODE#acme/n1', sk: 'NODE#HEARTBEAT' }],
  ['keys.agbot', keys.agbot('acme', 'a1'), { pk: 'AGBOT#acme/a1', sk: 'AGBOT' }],
  ['keys.principal', keys.principal('acme', 'a1'), { pk: 'PRINCIPAL#acme/a1', sk: 'PRINCIPAL' }],
  [
    'keys.agbotAgreement',
    keys.agbotAgreement('acme', 'a1', 'ag1'),
    { pk: 'AGBOT#acme/a1', sk: 'AGREEMENT#ag1' },
  ],
  [
    'keys.agbotPattern',
    keys.agbotPattern('acme', 'a1', 'other_pat'),
    { pk: 'AGBOT#acme/a1', sk: 'PATTERN#other_pat' },
  ],
  [
    'keys.agbotPolicy',
    keys.agbotPolicy('acme', 'a1', 'other_pol'),
    { pk: 'AGBOT#acme/a1', sk: 'BUSINESSPOL#other_pol' },
  ],
  [
    'keys.agbotSearchOffset',
    keys.agbotSearchOffset('acme', 'a1', 'other', 'pol'),
    { pk: 'AGBOT#acme/a1', sk: 'SEARCHOFFSET#other/pol' },
  ],
  ['keys.agbotMessage', keys.agbotMessage('acme', 'a1', 42), { pk: 'AGBOT#acme/a1', sk: 'MSG#000000000042' }],
  ['keys.agbotToken', keys.agbotToken('acme', 'a1'), { pk: 'AGBOT#acme/a1', sk: 'TOKEN' }],
  ['keys.agbotMessageSeq', keys.agbotMessageSeq('acme', 'a1'), { pk: 'AGBOT#acme/a1', sk: 'MSGSEQ' }],
  [
    'keys.nodeManagementStatus',
    keys.nodeManagementStatus('acme', 'n1', 'other/mp'),
    { pk: 'NODE#acme/n1', sk: 'MGMTSTATUS#other/mp' },
  ],
  [
    'keys.ownedAgbot',
    keys.ownedAgbot('hub', 'admin', 'acme', 'a1'),
    { pk: 'USER#hub/admin', sk: 'OWNS#AGBOT#acme/a1' },
  ],
  ['keys.agentFileVersions', keys.agentFileVersions('acme'), { pk: 'ORG#acme', sk: 'AGENTFILEVERSION' }],
  ['keys.dropToken', keys.dropToken(), { pk: 'ADMIN', sk: 'DROPDB_TOKEN' }],
  ['keys.principalsBackfilled', keys.principalsBackfilled(), { pk: 'ADMIN', sk: 'PRINCIPALS_BACKFILLED' }],
  ['keys.changeSequence', keys.changeSequence(), { pk: 'CHANGES', sk: 'SEQ' }],
  ['keys.changeHead', keys.changeHead(), { pk: 'PENDINGCHANGES', sk: '#HEAD' }],
  [
    'keys.service',
    keys.service('acme', 'svc_1.0.0_amd64'),
    { pk: 'SERVICE#acme/svc_1.0.0_amd64', sk: 'SERVICE' },
  ],
  ['keys.pattern', keys.pattern('acme', 'p1'), { pk: 'PATTERN#acme/p1', sk: 'PATTERN' }],
  ['keys.patternKey', keys.patternKey('acme', 'p1', 'k.pem'), { pk: 'PATTERN#acme/p1', sk: 'KEY#k.pem' }],
  [
    'keys.deploymentPolicy',
    keys.deploymentPolicy('acme', 'dp1'),
    { pk: 'BUSINESSPOL#acme/dp1', sk: 'BUSINESSPOL' },
  ],
  [
    'keys.nodeAgreement',
    keys.nodeAgreement('acme', 'n1', 'ag1'),
    { pk: 'NODE#acme/n1', sk: 'AGREEMENT#ag1' },
  ],
  ['keys.nodeStatus', keys.nodeStatus('acme', 'n1'), { pk: 'NODE#acme/n1', sk: 'STATUS' }],
  ['keys.nodeErrors', keys.nodeErrors('acme', 'n1'), { pk: 'NODE#acme/n1', sk: 'ERRORS' }],
  [
    'keys.servicePolicy',
    keys.servicePolicy('acme', 'svc_1.0.0_amd64'),
    { pk: 'SERVICE#acme/svc_1.0.0_amd64', sk: 'POLICY' },
  ],
  [
    'keys.serviceKey',
    keys.serviceKey('acme', 'svc_1.0.0_amd64', 'k.pem'),
    { pk: 'SERVICE#acme/svc_1.0.0_amd64', sk: 'KEY#k.pem' },
  ],
  [
    'keys.serviceDockAuth',
    keys.serviceDockAuth('acme', 'svc_1.0.0_amd64', 7),
    { pk: 'SERVICE#acme/svc_1.0.0_amd64', sk: 'DOCKAUTH#000000000007' },
  ],
  [
    'keys.serviceDockAuthSeq',
    keys.serviceDockAuthSeq('acme', 'svc_1.0.0_amd64'),
    { pk: 'SERVICE#acme/svc_1.0.0_amd64', sk: 'DOCKAUTHSEQ' },
  ],
  [
    'keys.publicService',
    keys.publicService('acme', 'svc_1.0.0_amd64'),
    { pk: 'PUBLICSERVICES', sk: 'acme/svc_1.0.0_amd64' },
  ],
  [
    'keys.ownedService',
    keys.ownedService('hub', 'admin', 'acme', 'svc_1.0.0_amd64'),
    { pk: 'USER#hub/admin', sk: 'OWNS#SERVICE#acme/svc_1.0.0_amd64' },
  ],
  [
    'keys.ownedCount',
    keys.ownedCount('PATTERN', 'acme', 'alice'),
    { pk: 'USER#acme/alice', sk: 'PATTERNCOUNT' },
  ],
  ['keys.publicPattern', keys.publicPattern('acme', 'p1'), { pk: 'PUBLICPATTERNS', sk: 'acme/p1' }],
  ['keys.nodeMessage', keys.nodeMessage('acme', 'n1', 42), { pk: 'NODE#acme/n1', sk: 'MSG#000000000042' }],
  ['keys.nodeMessageSeq', keys.nodeMessageSeq('acme', 'n1'), { pk: 'NODE#acme/n1', sk: 'MSGSEQ' }],
  ['keys.secret', keys.secret('acme', 'user/alice/db'), { pk: 'SECRETS#acme', sk: 'user/alice/db' }],
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
  ['agbotStateKeys.livePrefix', agbotStateKeys.livePrefix, 'LIVE#'],
  ['agbotStateKeys.archivedPrefix', agbotStateKeys.archivedPrefix, 'ARCHIVED#'],
  ['agbotStateKeys.revisitPrefix', agbotStateKeys.revisitPrefix('acme/p#1'), 'REVISIT#"acme/p#1"#'],
  [
    'changeRowKeys.pending',
    changeRowKeys.pending('2024-01-01T00:00:00.000Z#x'),
    { pk: 'PENDINGCHANGES', sk: '2024-01-01T00:00:00.000Z#x' },
  ],
  ['changeRowKeys.ofOrg', changeRowKeys.ofOrg('acme', 12), { pk: 'CHANGES#acme', sk: '0000000000000012' }],
  ['changeRowKeys.ofAll', changeRowKeys.ofAll(12), { pk: 'ALLCHANGES', sk: '0000000000000012' }],
  ['changeRowKeys.ofPublic', changeRowKeys.ofPublic(12), { pk: 'PUBLICCHANGES', sk: '0000000000000012' }],
  ['changeRowKeys.sortKeyFrom', changeRowKeys.sortKeyFrom(-3), '0000000000000000'],
  ['changeRowKeys.pendingPartition', changeRowKeys.pendingPartition, 'PENDINGCHANGES'],
  ['changeRowKeys.orgPartition', changeRowKeys.orgPartition('acme'), 'CHANGES#acme'],
  ['changeRowKeys.allPartition', changeRowKeys.allPartition, 'ALLCHANGES'],
  ['changeRowKeys.publicPartition', changeRowKeys.publicPartition, 'PUBLICCHANGES'],
  ['indexKeys.allOrgs', indexKeys.allOrgs, 'ORGS'],
  ['indexKeys.allOrgStats', indexKeys.allOrgStats, 'STATS'],
  ['indexKeys.orgUsers', indexKeys.orgUsers('acme'), 'ORG#acme#USERS'],
  ['indexKeys.orgNodes', indexKeys.orgNodes('acme'), 'ORG#acme#NODES'],
  ['indexKeys.orgAgbots', indexKeys.orgAgbots('acme'), 'ORG#acme#AGBOTS'],
  ['indexKeys.orgServices', indexKeys.orgServices('acme'), 'ORG#acme#SERVICES'],
  ['indexKeys.orgPatterns', indexKeys.orgPatterns('acme'), 'ORG#acme#PATTERNS'],
  ['indexKeys.nodeSearch', indexKeys.nodeSearch('acme', 'acme/p1'), 'SEARCH#acme#acme/p1'],
  [
    'indexKeys.nodeSearchSort',
    indexKeys.nodeSearchSort('2024-01-01T00:00:00.000Z', 'n1'),
    '2024-01-01T00:00:00.000Z#n1',
  ],
  ['indexKeys.orgDeploymentPolicies', indexKeys.orgDeploymentPolicies('acme'), 'ORG#acme#BUSINESSPOLS'],
  ['indexKeys.agreementById', indexKeys.agreementById('ag1'), 'AGREEMENT#ag1'],
  ['indexKeys.sentNodeMessages', indexKeys.sentNodeMessages('acme', 'a1'), 'NODEMSGS#acme/a1'],
  ['indexKeys.nodeSecrets', indexKeys.nodeSecrets('acme', 'n1'), 'ORG#acme#NODE#n1#SECRETS'],
  ['serviceChildPrefix', serviceChildPrefix, { key: 'KEY#', dockAuth: 'DOCKAUTH#' }],
  ['ownedServicePrefix', ownedServicePrefix, 'OWNS#SERVICE#'],
  ['publicServicesPartition', publicServicesPartition, 'PUBLICSERVICES'],
  ['publicPatternsPartition', publicPatternsPartition, 'PUBLICPATTERNS'],
  [
    'agbotChildPrefix',
    agbotChildPrefix,
    { agreement: 'AGREEMENT#', pattern: 'PATTERN#', policy: 'BUSINESSPOL#', message: 'MSG#' },
  ],
  ['ownedAgbotPrefix', ownedAgbotPrefix, 'OWNS#AGBOT#'],
  ['nodeChildPrefix', nodeChildPrefix, { managementStatus: 'MGMTSTATUS#', agreement: 'AGREEMENT#' }],
];

/** Every key builder and constant, so a new one must be pinned here too. */
const CHARTS: Record<string, unknown> = {
  keys,
  indexKeys,
  changeRowKeys,
  signalKeys,
  agbotStateKeys,
  serviceChildPrefix,
  ownedServicePrefix,
  publicServicesPartition,
  publicPatternsPartition,
  agbotChildPrefix,
  ownedAgbotPrefix,
  nodeChildPrefix,
};

describe('the key formats', () => {
  it.each(CASES)('%s', (_, actual, expected) => {
    expect(actual).toEqual(expected);
  });

  it('pins every key builder and constant', () => {
    const names = Object.entries(CHARTS).flatMap(([chart, value]) =>
      typeof value === 'object' && value !== null && !chart.endsWith('Prefix')
        ? Object.keys(value).map((member) => `${chart}.${member}`)
        : [chart],
    );
    expect(CASES.map(([name]) => name).sort()).toEqual(names.sort());
  });
});
