/**
 * The time a management policy was created or last written, as `2026-01-21T16:39:49.123000Z[UTC]`:
 * six fraction digits and the zone name, the layout upstream's agents parse
 * (open-horizon/anax `exchangecommon/node_management_status.go`) to anchor `start: "now"`. A time they
 * cannot parse makes them anchor it on their own clock instead (docs/nmp.md#timestamps).
 */
export const nmpTimestamp = (date: Date): string => date.toISOString().replace(/Z$/, '000Z[UTC]');

/** Milliseconds since the epoch of a policy time in either form (`…Z[UTC]` or plain ISO 8601); NaN if unreadable. */
export const parseNmpTimestamp = (text: string): number => Date.parse(text.replace(/\[[^\]]*\]$/, ''));
