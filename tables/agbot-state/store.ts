import type { AgbotStore } from '#lib/agbot-store/contract';
import type { KeyProvider } from '#lib/secrets/key-provider';
import { keyProvider } from '#lib/secrets/provider';
import type { AgbotRef } from './agbot-ref.ts';
import * as agreements from './agreements.ts';
import * as cursor from './feed-cursor.ts';
import * as messagingKey from './messaging-key.ts';
import * as statuses from './policy-status.ts';
import * as rollouts from './rollouts.ts';
import * as searches from './searches.ts';

/**
 * The agbot's state in the Exchange's table, for the agbot that runs as functions of the stack:
 * the same contract as the standalone agbot's SQLite file (lib/agbot-store/contract.ts), every
 * write that two overlapping invocations could race on made conditional. The calls and capacity
 * of each method are in tables/README.md ("The agbot's own state").
 */
export function dynamoAgbotStore(agbot: AgbotRef, provider: () => KeyProvider = keyProvider): AgbotStore {
  return {
    messagingKey: () => messagingKey.readMessagingKey(agbot, provider()),
    keepMessagingKey: (pem) => messagingKey.keepMessagingKey(agbot, pem, provider()),
    feedCursor: () => cursor.readFeedCursor(agbot),
    advanceFeedCursor: (expected, next) => cursor.advanceFeedCursor(agbot, expected, next),
    saveAgreement: (agreement) => agreements.saveAgreement(agbot, agreement),
    updateLiveAgreements: (list) => agreements.updateLiveAgreements(agbot, list),
    getAgreement: (agreementId) => agreements.getAgreement(agbot, agreementId),
    getAgreements: (agreementIds) => agreements.getAgreements(agbot, agreementIds),
    listAgreements: (archived) => agreements.listAgreements(agbot, archived),
    endedAgreements: (nodeOrg, nodeId, policy) => agreements.endedAgreements(agbot, nodeOrg, nodeId, policy),
    liveAgreementNodes: (policy, nodes) => agreements.liveAgreementNodes(agbot, policy, nodes),
    getSearch: (policy) => searches.getSearch(agbot, policy),
    setSearch: (policy, state) => searches.setSearch(agbot, policy, state),
    revisit: (policy, node) => searches.revisit(agbot, policy, node),
    revisits: (policy) => searches.revisits(agbot, policy),
    revisited: (policy, nodes) => searches.revisited(agbot, policy, nodes),
    policyStatus: (policy) => statuses.policyStatus(agbot, policy),
    savePolicyStatus: (status) => statuses.savePolicyStatus(agbot, status),
    policyStatuses: () => statuses.policyStatuses(agbot),
    dropPolicyStatus: (policy) => statuses.dropPolicyStatus(agbot, policy),
    rollout: (policy) => rollouts.rollout(agbot, policy),
    saveRollout: (record) => rollouts.saveRollout(agbot, record),
    rolloutNodes: (policy) => rollouts.rolloutNodes(agbot, policy),
    saveRolloutNodes: (nodes) => rollouts.saveRolloutNodes(agbot, nodes),
    dropRolloutNodes: (policy) => rollouts.dropRolloutNodes(agbot, policy),
    // One DynamoDB client per process, shared with the rest of the stack: nothing to close.
    close: async () => undefined,
  };
}
