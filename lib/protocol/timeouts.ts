/**
 * The protocol's clocks (docs/protocol.md#timeouts, #mailboxes, #secrets-in-agreements), in seconds, with anax's defaults. Where
 * upstream derives a value from the node's max heartbeat interval, the helper takes it (or its
 * default of 120 s) so callers and tests see one rule.
 */
export const DEFAULT_MAX_HEARTBEAT_S = 120;

/** Agbot: ProtocolTimeoutScaleFactor (anax default 2; its packaged template uses 3). */
export const PROTOCOL_TIMEOUT_SCALE = 2;
/** Agbot: no reply to a proposal (or to a policy-change update) within this → cancel 201. */
export const protocolTimeoutS = (maxHeartbeatS = DEFAULT_MAX_HEARTBEAT_S): number =>
  PROTOCOL_TIMEOUT_SCALE * (maxHeartbeatS || DEFAULT_MAX_HEARTBEAT_S);

/** Agbot → node message TTL: ExchangeMessageTTLScaleFactor × the node's max heartbeat. */
export const MESSAGE_TTL_SCALE = 2;
export const agbotMessageTtlS = (maxHeartbeatS = DEFAULT_MAX_HEARTBEAT_S): number =>
  MESSAGE_TTL_SCALE * (maxHeartbeatS || DEFAULT_MAX_HEARTBEAT_S);
/** Node → agbot message TTL (packaged anax.json Edge.ExchangeMessageTTL). */
export const NODE_MESSAGE_TTL_S = 1800;
/** What anax's CreatePostMessage uses when given a TTL of 0. */
export const FALLBACK_MESSAGE_TTL_S = 180;

/** Node: an agreement not accepted and finalized this long after creation is cancelled (107 / 999). */
export const NODE_AGREEMENT_TIMEOUT_S = 600;
/** Node: a workload not started this long after acceptance → 104. */
export const MAX_AGREEMENT_PRELAUNCH_S = 600;
/** Node: more failed verifications than this → 122. */
export const MAX_FAILED_VERIFICATIONS = 5;

/** Governance loops of both sides (ProcessGovernanceIntervalS in the agbot template; node fixed). */
export const GOVERNANCE_INTERVAL_S = 10;
/** Node: container health check → 103. */
export const CONTAINER_CHECK_INTERVAL_S = 60;
/** Agbot: NewContractIntervalS (template), FullRescanS, ErrRescanS. */
export const NEW_CONTRACT_INTERVAL_S = 10;
export const FULL_RESCAN_S = 600;
export const ERROR_RESCAN_S = 15;
/** Agbot: RetryLookBackWindow for searches after a failed agreement. */
export const RETRY_LOOKBACK_S = 3600;
/** Both: Exchange transport errors are retried this often. */
export const TRANSPORT_RETRY_S = 10;
/** Agbot: MessageKeyCheck — the published key is re-checked this often. */
export const MESSAGE_KEY_CHECK_S = 60;

/** Agbot secret-update poller (docs/protocol.md#secrets-in-agreements): starts at 60 s, +30 s per idle cycle, at most 180 s. */
export const SECRETS_UPDATE_CHECK_S = 60;
export const SECRETS_UPDATE_CHECK_INCREMENT_S = 30;
export const SECRETS_UPDATE_CHECK_MAX_S = 180;

/** Agbot: archived agreements are purged every 1800 s once older than 1 h. */
export const ARCHIVE_PURGE_INTERVAL_S = 1800;
export const ARCHIVE_PURGE_AGE_S = 3600;
