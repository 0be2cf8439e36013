/**
 * List prices the fleet benchmark prices an idle fleet at (issue 24), us-east-1, as of
 * 2026-11-27. Kept here, dated, so a price change is one edit.
 */
export const PRICES_AS_OF = '2026-11-27';
export const PRICES = {
  /** API Gateway HTTP API, per request (first 300 million a month). */
  httpRequest: 1.0 / 1e6,
  /** API Gateway WebSocket API: per connection-minute and per message (32 KB units). */
  websocketConnectionMinute: 0.25 / 1e6,
  websocketMessage: 1.0 / 1e6,
  /** Lambda arm64: per request and per GB-second. */
  lambdaRequest: 0.2 / 1e6,
  lambdaGbSecond: 0.0000133334,
  /** DynamoDB on demand: per write request unit and per read request unit. */
  writeUnit: 0.625 / 1e6,
  readUnit: 0.125 / 1e6,
} as const;

/** 30 days. */
export const MINUTES_PER_MONTH = 30 * 24 * 60;

/** What one node does per minute, on average. */
interface PerNodeMinute {
  httpRequests: number;
  websocketConnectionMinutes: number;
  websocketMessages: number;
  /**
   * Invocations of the signal channel's function: `$connect`, `$disconnect` and each message a
   * client sends (the keepalives); the "look now" messages the Exchange sends invoke nothing.
   */
  websocketInvocations: number;
  /** Lambda billed seconds per HTTP request (measured; an upper bound locally). */
  lambdaSecondsPerRequest: number;
  lambdaMemoryGb: number;
  /** The signal function's memory (serverless: functions/signals/function.ts). */
  signalsMemoryGb: number;
  readUnits: number;
  writeUnits: number;
}

/** The monthly cost of 1,000 such nodes, itemised, in dollars. */
export function costPerThousandNodeMonths(m: PerNodeMinute) {
  const perMonth = (perMinute: number) => perMinute * MINUTES_PER_MONTH * 1000;
  const items = {
    'API Gateway HTTP requests': perMonth(m.httpRequests) * PRICES.httpRequest,
    'API Gateway WebSocket connection-minutes':
      perMonth(m.websocketConnectionMinutes) * PRICES.websocketConnectionMinute,
    'API Gateway WebSocket messages': perMonth(m.websocketMessages) * PRICES.websocketMessage,
    'Lambda requests': perMonth(m.httpRequests + m.websocketInvocations) * PRICES.lambdaRequest,
    'Lambda duration':
      (perMonth(m.httpRequests) * m.lambdaMemoryGb + perMonth(m.websocketInvocations) * m.signalsMemoryGb) *
      m.lambdaSecondsPerRequest *
      PRICES.lambdaGbSecond,
    'DynamoDB write units': perMonth(m.writeUnits) * PRICES.writeUnit,
    'DynamoDB read units': perMonth(m.readUnits) * PRICES.readUnit,
  };
  const total = Object.values(items).reduce((sum, value) => sum + value, 0);
  return { items, total };
}
