/**
 * The protocol's clocks (docs/protocol.md#timeouts, #mailboxes, #secrets-in-agreements), in seconds, with anax's defaults. Where
 * upstream derives a value from the node's max heartbeat interval, the helper takes it (or its
 * default of 120 s) so callers and tests see one rule.
 */
const DEFAULT_MAX_HEARTBEAT_S = 120;

/** Agbot: ProtocolTimeoutScaleFactor (anax default 2; its packaged template uses 3). */
const PROTOCOL_TIMEOUT_SCALE = 2;
/** Agbot: no reply to a proposal (or to a policy-change update) within this → cancel 201. */
export const protocolTimeoutS = (maxHeartbeatS = DEFAULT_MAX_HEARTBEAT_S): number =>
  PROTOCOL_TIMEOUT_SCALE * (maxHeartbeatS || DEFAULT_MAX_HEARTBEAT_S);

/** Agbot → node message TTL: ExchangeMessageTTLScaleFactor × the node's max heartbeat. */
const MESSAGE_TTL_SCALE = 2;
export const agbotMessageTtlS = (maxHeartbeatS = DEFAULT_MAX_HEARTBEAT_S): number =>
  MESSAGE_TTL_SCALE * (maxHeartbeatS || DEFAULT_MAX_HEARTBEAT_S);
/** Node → agbot message TTL (packaged anax.json Edge.ExchangeMessageTTL). */
export const NODE_MESSAGE_TTL_S = 1800;

/** Node: an agreement not accepted and finalized this long after creation is cancelled (107 / 999). */
export const NODE_AGREEMENT_TIMEOUT_S = 600;
/** Node: a workload not started this long after acceptance → 104. */
export const MAX_AGREEMENT_PRELAUNCH_S = 600;

/** Node: the governance loop (fixed in anax). */
export const GOVERNANCE_INTERVAL_S = 10;
/** Node: container health check → 103. */
export const CONTAINER_CHECK_INTERVAL_S = 60;
/** Agbot: NewContractIntervalS (template): a round of searches and proposals this often. */
export const NEW_CONTRACT_INTERVAL_S = 10;
/** Agbot: FullRescanS: a full search of every served policy this often. */
export const FULL_RESCAN_S = 600;
