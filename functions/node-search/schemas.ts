import * as z from 'zod';
import { idSegment } from '#lib/ids';

/** Request bodies of the agbots' node searches (docs/exchange-catalog.md#pattern-search, #pattern-node-health, #policy-search). */
const SHORT = 4096;
const short = z.string().max(SHORT, `must be at most ${SHORT} characters`);
const nodeOrgids = z.array(idSegment).max(1000, 'must have at most 1000 entries');
const int64 = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

/** Pattern search: no paging (`numEntries`, `startIndex` accepted and ignored, as upstream). */
export const patternSearchBody = z.strictObject({
  serviceUrl: short.default(''),
  arch: short.nullish(),
  nodeOrgids: nodeOrgids.nullish(),
  secondsStale: int64.nullish(),
  numEntries: z.union([int64, short]).nullish(),
  startIndex: short.nullish(),
});

/** Policy search, with upstream's paging (`changedSince` epoch seconds, `session`, `numEntries`). */
export const policySearchBody = z.strictObject({
  changedSince: int64.default(0),
  nodeOrgids: nodeOrgids.nullish(),
  numEntries: int64.nullish(),
  session: short.nullish(),
  startIndex: short.nullish(),
});

/** Node health: heartbeats since `lastTime` ("" = all). */
export const nodeHealthBody = z.strictObject({
  lastTime: short,
  nodeOrgids: nodeOrgids.nullish(),
});
