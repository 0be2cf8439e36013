/**
 * Why an agreement ended (docs/protocol.md#reason-codes): the `reason` of a cancel message and the node's
 * `terminated_reason`. Node codes are 1xx, agbot codes 2xx; there is no 102. The descriptions are
 * upstream's `terminated_description` strings exactly.
 */
export const REASON = {
  nodePolicyChanged: 101,
  serviceTerminated: 103,
  serviceStartTimeout: 104,
  userRequested: 105,
  agbotRequested: 106,
  noReplyAck: 107,
  dependentServiceFailed: 108,
  imageLoadFailed: 109,
  dependentImageLoadFailed: 110,
  dependentUpgrade: 111,
  imageDataError: 112,
  imageFetchFailed: 113,
  imageFetchAuthFailed: 114,
  imageSignatureFailed: 115,
  nodeUnconfigured: 116,
  dependentImageFetchFailed: 117,
  dependentDowngrade: 118,
  serviceSuspended: 119,
  userInputChanged: 120,
  patternChanged: 121,
  /** More than 5 failed verifications; upstream has no description for it. */
  verificationFailed: 122,
  agbotNoReply: 201,
  agbotNegativeReply: 202,
  agbotNoData: 203,
  agbotPolicyChanged: 204,
  agbotProducerCancelled: 205,
  agbotUserRequested: 206,
  agbotUpgrade: 207,
  agbotNodeHeartbeatStopped: 208,
  agbotAgreementMissingOnNode: 209,
  agbotUpdateRejected: 210,
  unknown: 999,
} as const;

const UNKNOWN = 'unknown reason code, device might be downlevel';

const DESCRIPTIONS: Record<number, string> = {
  101: 'node policy changed',
  103: 'service terminated',
  104: 'service start timeout',
  105: 'user requested',
  106: 'agbot requested',
  107: 'agreement protocol incomplete, no reply ack received',
  108: 'dependent service failed',
  109: 'service image loading failed',
  110: 'dependent service image loading failed',
  111: 'required by dependent service upgrade process',
  112: 'image data error',
  113: 'image fetching failed',
  114: 'authorization failed for image fetching',
  115: 'image signature verification failed',
  116: 'node was unconfigured',
  117: 'dependent service image fetching failed',
  118: 'dependent service failed, need to downgrade to lower version',
  119: 'service suspended',
  120: 'node user input changed',
  121: 'node pattern changed',
  201: 'agreement bot never received reply to proposal',
  202: 'agreement bot received negative reply',
  203: 'agreement bot did not detect data',
  204: 'agreement bot policy changed',
  205: 'agreement bot discovered cancellation from producer',
  206: 'agreement bot user requested',
  207: 'agreement bot user requested service upgrade',
  208: 'agreement bot detected node heartbeat stopped',
  209: 'agreement bot detected agreement missing from node',
  210: 'agreement update rejected by node',
};

/** Upstream's description of a code; 122, 999 and unknown codes get its fallback text. */
export const describeReason = (code: number): string => DESCRIPTIONS[code] ?? UNKNOWN;

/** The node's reasons that mean "this version's workload does not work here". */
export const WORKLOAD_FAILURES: ReadonlySet<number> = new Set([
  REASON.serviceTerminated,
  REASON.serviceStartTimeout,
  REASON.dependentServiceFailed,
  REASON.imageLoadFailed,
  REASON.dependentImageLoadFailed,
  REASON.imageDataError,
  REASON.imageFetchFailed,
  REASON.imageFetchAuthFailed,
  REASON.imageSignatureFailed,
  REASON.dependentImageFetchFailed,
]);

export const isWorkloadFailure = (reason: number | undefined): boolean =>
  reason !== undefined && WORKLOAD_FAILURES.has(reason);
