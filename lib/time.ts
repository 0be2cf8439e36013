/** A clock that handlers receive as a dependency, so tests can move time without waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Upstream writes `java.time.Instant.toString()`: ISO 8601 UTC, which `Date#toISOString` matches. */
export const isoTimestamp = (clock: Clock = systemClock): string => clock.now().toISOString();

/** Epoch seconds, the unit DynamoDB's TTL attribute expects. */
export const epochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);
