import * as z from 'zod';
import { policyStatusResponse } from '#functions/agbot-status/shared/schemas';
import { rolloutResponse, statusesResponse } from '#functions/rollouts/shared/schemas';
import { MAX_ID_LENGTH } from '#lib/ids';
import { pageLimit } from '#lib/page-limit';

/** GET /v1/console/orgs/{organization}/deployments: every policy and pattern with its counts, paged. */
export const deploymentsQuery = z.strictObject({
  limit: pageLimit(100).optional(),
  /** The previous page's `next`: `policy/<name>` or `pattern/<name>`. */
  after: z
    .string()
    .max(MAX_ID_LENGTH + 8, `must be at most ${MAX_ID_LENGTH + 8} characters`)
    .regex(/^(policy|pattern)\/.+$/, "must be a page's next: policy/<name> or pattern/<name>")
    .transform((value) => {
      const at = value.indexOf('/');
      return { kind: value.slice(0, at) as 'policy' | 'pattern', name: value.slice(at + 1) };
    })
    .optional(),
});
export type DeploymentsQuery = z.infer<typeof deploymentsQuery>;

const report = policyStatusResponse.pick({
  matched: true,
  proposed: true,
  agreed: true,
  running: true,
  failing: true,
  lastSearch: true,
  skipped: true,
});

export const deploymentRow = report.extend({
  kind: z.enum(['policy', 'pattern']),
  name: z.string(),
  served: z
    .array(z.string())
    .describe("the in-stack agbot's status names behind the row (a pattern: one per service)"),
  rollout: rolloutResponse
    .pick({ control: true, lastUpdated: true })
    .extend({ statuses: statusesResponse.shape.statuses })
    .optional()
    .describe('a deployment policy with a rollout plan: the operator’s actions and each agbot’s report'),
});
export type DeploymentRow = z.infer<typeof deploymentRow>;

export const deploymentsResponse = z.object({
  org: z.string(),
  deployments: z.array(deploymentRow).describe('deployment policies by name, then patterns by name'),
  next: z.string().optional().describe('pass as `after` for the next page; absent on the last'),
  at: z.string(),
});
export type Deployments = z.infer<typeof deploymentsResponse>;
