/**
 * Deadlines that only bound a failure (docs/testing.md, "No waiting on the clock"): a test waits on
 * the event itself, and a passing test never reaches them. They are generous because a loaded
 * machine (the whole suite beside a busy core) makes a wait of 20 s take a minute; a bound that is
 * the point of its test (a signal arriving before the next poll) is written where it is proven.
 * The other projects' testTimeout (vitest.config.ts) is 120 s.
 */

/** One event of a running system: a message in a mailbox, a state, a log line, an agent answering. */
export const EVENT_MS = 120_000;

/**
 * An end-to-end test or hook (the e2e project's testTimeout and hookTimeout, vitest.config.ts): a
 * journey of several such events, or a stack started beside a loaded machine.
 */
export const JOURNEY_MS = 300_000;
