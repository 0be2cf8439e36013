import * as z from 'zod';
import { idSegment } from '#lib/ids';
import { rolloutControl } from '#lib/rollout/control';
import { rolloutPlan } from '#lib/rollout/plan';
import { rolloutStatus } from '#lib/rollout/status';

/** Schemas of the rollout sub-resource (docs/rollouts.md#operators). */
export const rolloutPath = z.object({ organization: idSegment, policy: idSegment });
export type RolloutPath = z.infer<typeof rolloutPath>;

export const rolloutResponse = z.object({
  plan: z.looseObject({}),
  control: rolloutControl,
  lastUpdated: z.string(),
});

const storedStatus = rolloutStatus.extend({ agbot: z.string(), updatedAt: z.string() });

export const statusesResponse = z.object({ policy: z.string(), statuses: z.array(storedStatus) });

export const dryRunResponse = z.object({
  policy: z.string(),
  planLastUpdated: z.string(),
  plans: z.array(
    z.object({
      agbot: z.string(),
      current: z.boolean(),
      lastUpdated: z.string(),
      waves: z.array(
        z.object({ index: z.number(), name: z.string(), count: z.number(), nodes: z.array(z.string()) }),
      ),
    }),
  ),
});

export { rolloutPlan as rolloutPlanBody, rolloutStatus as rolloutStatusBody };
