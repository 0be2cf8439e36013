import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { agreementView } from '#functions/agbot-agreements/shared/agreement-view';
import { agbotAgreement } from '#functions/agbot-agreements/shared/responses';
import { messageView } from '#functions/agbot-messages/shared/message-view';
import { agbotMsg } from '#functions/agbot-messages/shared/schemas';
import { patternView } from '#functions/agbot-patterns/shared/pattern-view';
import { agbotPattern } from '#functions/agbot-patterns/shared/schemas';
import { policyView } from '#functions/agbot-policies/shared/policy-view';
import { agbotBusinessPol } from '#functions/agbot-policies/shared/schemas';
import { agbotView } from '#functions/agbots/shared/agbot-view';
import { agbot } from '#functions/agbots/shared/responses';
import { getManagementStatusResponse } from '#functions/node-management-status/shared/responses';
import { statusesView } from '#functions/node-management-status/shared/view';
import { nodeMessageView } from '#functions/node-messages/shared/message-view';
import { nodeMsg } from '#functions/node-messages/shared/schemas';
import { nodeView } from '#functions/nodes/node-view';
import { nodePolicyView } from '#functions/nodes/policy-view';
import { node, nodePolicy } from '#functions/nodes/responses';
import { orgView } from '#functions/orgs/shared/org-view';
import { org } from '#functions/orgs/shared/responses';
import { user } from '#functions/users/shared/responses';
import { userView } from '#functions/users/shared/user-view';

/**
 * Every view is built field by field from an allow-list: given a record that also holds stored-only
 * fields (hashes, keys, counters, unknown ones), it answers exactly its response schema's fields.
 * `schema.parse` drops unknown keys, so a view that let one through differs from its parse.
 */
const STORED_ONLY = {
  pk: 'NODE#acme/n1',
  sk: 'NODE',
  gsi1pk: 'ORG#acme#NODES',
  gsi1sk: 'n1',
  _et: 'node',
  tokenHash: '$scrypt$ln=14,r=8,p=1$c2FsdA==$aGFzaA==',
  passwordHash: '$scrypt$ln=14,r=8,p=1$c2FsdA==$aGFzaA==',
  secretHash: '$scrypt$ln=14,r=8,p=1$c2FsdA==$aGFzaA==',
  agreementCount: 3,
  ttl: 123,
  somethingAddedLater: 'x',
};
// biome-ignore lint/suspicious/noExplicitAny: records of every kind, stuffed with stored-only fields.
const stored = (fields: Record<string, unknown>): any => ({ ...STORED_ONLY, ...fields });

const now = '2031-05-01T10:00:00.000Z';
const cases: [string, z.ZodType, unknown][] = [
  [
    'node',
    node,
    nodeView(
      stored({
        org: 'acme',
        id: 'n1',
        name: 'n1',
        owner: 'acme/u',
        nodeType: 'device',
        pattern: '',
        registeredServices: [
          { url: 'o/s', numAgreements: 1, configState: 'active', policy: '', properties: [], extra: 'x' },
        ],
        userInput: [
          { serviceOrgid: 'o', serviceUrl: 's', inputs: [{ name: 'x', value: 1, extra: 'x' }], extra: 'x' },
        ],
        msgEndPoint: '',
        softwareVersions: { horizon: '2.30.0' },
        publicKey: '',
        arch: 'arm64',
        heartbeatIntervals: { minInterval: 1, maxInterval: 2, intervalAdjustment: 3, extra: 4 },
        lastUpdated: now,
        isNamespaceScoped: false,
      }),
    ),
  ],
  [
    'node policy',
    nodePolicy,
    nodePolicyView(
      stored({
        label: 'l',
        description: 'd',
        properties: [{ name: 'p', value: 1, extra: 'x' }],
        constraints: ['a == 1'],
        deployment: { properties: [{ name: 'q', type: 'int', value: 2 }], extra: 'x' },
        nodePolicyVersion: '1',
        lastUpdated: now,
      }),
    ),
  ],
  [
    'agbot',
    agbot,
    agbotView(
      stored({
        org: 'acme',
        id: 'a1',
        name: 'a',
        owner: 'acme/u',
        msgEndPoint: '',
        lastHeartbeat: now,
        publicKey: '',
      }),
    ),
  ],
  [
    'agreement',
    agbotAgreement,
    agreementView(
      stored({
        agreementId: 'ag',
        service: { orgid: 'o', pattern: 'p', url: 'u', extra: 'x' },
        state: 's',
        lastUpdated: now,
        dataLastReceived: '',
      }),
    ),
  ],
  [
    'message',
    agbotMsg,
    messageView(
      stored({
        msgId: 1,
        senderId: 'acme/n1',
        senderPubKey: 'k',
        message: 'm',
        timeSent: now,
        timeExpires: now,
      }),
    ),
  ],
  [
    'node message',
    nodeMsg,
    nodeMessageView(
      stored({
        msgId: 1,
        senderId: 'acme/a1',
        senderPubKey: 'k',
        message: 'm',
        timeSent: now,
        timeExpires: now,
      }),
    ),
  ],
  [
    'pattern',
    agbotPattern,
    patternView(stored({ patternOrgid: 'o', pattern: 'p', nodeOrgid: 'o', lastUpdated: now })),
  ],
  [
    'policy',
    agbotBusinessPol,
    policyView(stored({ businessPolOrgid: 'o', businessPol: 'p', nodeOrgid: 'o', lastUpdated: now })),
  ],
  [
    'management statuses',
    getManagementStatusResponse,
    statusesView([
      stored({
        policy: 'acme/p',
        scheduledTime: now,
        startTime: '',
        endTime: '',
        upgradedVersions: { softwareVersion: '1', certVersion: '', configVersion: '', extra: 'x' },
        status: '',
        errorMessage: '',
        lastUpdated: now,
      }),
    ]),
  ],
  [
    'user',
    user,
    userView(
      stored({
        org: 'acme',
        username: 'u',
        admin: false,
        hubAdmin: false,
        email: 'e',
        lastUpdated: now,
        updatedBy: '',
      }),
      true,
    ),
  ],
  [
    'org',
    org,
    orgView(
      stored({
        org: 'acme',
        orgType: '',
        label: 'l',
        description: 'd',
        lastUpdated: now,
        limits: { maxNodes: 0, extra: 1 },
        heartbeatIntervals: { minInterval: 0, maxInterval: 0, intervalAdjustment: 0, extra: 1 },
      }),
    ),
  ],
];

describe('response views', () => {
  it.each(cases)(
    '%s: exactly the response schema’s fields, never a stored-only one',
    (_name, schema, view) => {
      expect(schema.parse(view)).toEqual(view);
      expect(JSON.stringify(view)).not.toMatch(
        /tokenHash|passwordHash|secretHash|\$scrypt\$|somethingAddedLater|gsi1|"pk"|"sk"|extra/,
      );
    },
  );
});
