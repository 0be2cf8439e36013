/** Shapes exchanged with the Exchange (and kept locally): node user input and node policy. */

export interface UserInputValue {
  name: string;
  value: unknown;
}

export interface UserInputEntry {
  serviceOrgid: string;
  serviceUrl: string;
  serviceArch: string;
  serviceVersionRange: string;
  inputs: UserInputValue[];
}

/** User input as it may arrive (from a caller or the Exchange): optional parts may be absent or null. */
export interface RawUserInput {
  serviceOrgid?: string;
  serviceUrl?: string;
  serviceArch?: string | null;
  serviceVersionRange?: string | null;
  inputs?: UserInputValue[] | null;
}

export interface PolicyProperty {
  name: string;
  value: unknown;
  type?: string;
}

interface PolicySection {
  properties: PolicyProperty[];
  constraints: string[];
}

export interface NodePolicy {
  label?: string;
  description?: string;
  properties: PolicyProperty[];
  constraints: string[];
  deployment: PolicySection;
  management: PolicySection;
}

/** The parts of the Exchange's node record the agent reads. */
export interface ExchangeNode {
  name?: string;
  nodeType?: string;
  pattern?: string;
  arch?: string;
  userInput?: RawUserInput[] | null;
  registeredServices?: RegisteredService[] | null;
  ha_group?: string | null;
  lastUpdated?: string;
  /** Seconds; all 0 (or absent) when the node has none (the org's or the agent's apply). */
  heartbeatIntervals?: HeartbeatIntervalsRecord | null;
}

export type HeartbeatIntervalsRecord = {
  minInterval?: number;
  maxInterval?: number;
  intervalAdjustment?: number;
};

export interface ExchangePolicy {
  label?: string;
  description?: string;
  properties?: PolicyProperty[] | null;
  constraints?: string[] | null;
  deployment?: { properties?: PolicyProperty[] | null; constraints?: string[] | null } | null;
  management?: { properties?: PolicyProperty[] | null; constraints?: string[] | null } | null;
  nodePolicyVersion?: string;
  lastUpdated?: string;
}

/** One entry of the Exchange node's `registeredServices` (`url` is `<org>/<service url>`). */
export interface RegisteredService {
  url: string;
  numAgreements: number;
  configState: string;
  policy: string;
  properties: { name: string; value: string; propType: string; op: string }[];
  version: string;
}

/** A node management (agent upgrade) status as the Exchange keeps it (absent values are ""). */
export interface ExchangeManagementStatus {
  agentUpgradePolicyStatus: {
    scheduledTime: string;
    startTime?: string;
    endTime?: string;
    upgradedVersions?: { softwareVersion?: string; certVersion?: string; configVersion?: string };
    status?: string;
    errorMessage?: string;
    lastUpdated?: string;
  };
}

/** A node management policy as `GET /orgs/{org}/managementpolicies` answers it (docs/nmp.md#the-exchange). */
export interface ExchangeNmp {
  owner?: string;
  label?: string;
  description?: string;
  constraints?: string[] | null;
  properties?: { name: string; value: unknown; type?: string }[] | null;
  patterns?: string[] | null;
  enabled: boolean;
  start?: string;
  startWindow?: number;
  agentUpgradePolicy?: { allowDowngrade?: boolean; manifest?: string } | null;
  created?: string;
  lastUpdated?: string;
}
