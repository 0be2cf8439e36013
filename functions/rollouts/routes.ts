import type { ZodType } from 'zod';
import { errors, okResponse } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import { abortBody, pauseBody, promoteBody, resumeBody, retryBody } from '#lib/rollout/control';
import {
  dryRunResponse,
  rolloutPath,
  rolloutPlanBody,
  rolloutResponse,
  rolloutStatusBody,
  statusesResponse,
} from './shared/schemas.ts';

const P = '/v1/orgs/{organization}/business/policies/{policy}/rollout';
const readers = 'Identities of the org, multi-tenant agbots, root; other orgs 403; a missing policy 404.';
const writers = 'The owner, org admins, root (agbots and nodes 403); a missing policy or plan 404.';
const action = <Id extends string, B extends ZodType>(
  operationId: Id,
  verb: string,
  handler: () => Promise<unknown>,
  summary: string,
  body: B,
) =>
  ({
    method: 'POST',
    path: `${P}/${verb}`,
    operationId,
    handler,
    summary,
    description: `${writers} Recorded in the plan's control with the next sequence number and a \`rollout\` change row; the agbots apply it at their next round.`,
    request: { path: rolloutPath, body },
    responses: { 201: okResponse('recorded'), ...errors(400, 401, 403, 404, 409) },
  }) as const;

/** A deployment policy's rollout plan, its operator actions and the agbots' statuses (docs/rollouts.md). Our extension. */
export const rolloutsRoutes = routeList({
  folder: 'rollouts',
  mounts: [P, `${P}/{proxy+}`],
  tag: 'rollouts',
  description:
    "Staged rollouts of a deployment policy's new versions (our extension; upstream clients ignore it)",
  components: { RolloutStatuses: statusesResponse },
  requests: { RolloutPlan: rolloutPlanBody, RolloutStatus: rolloutStatusBody },
  routes: [
    {
      method: 'GET',
      path: P,
      operationId: 'getRollout',
      handler: () => import('./get-rollout.ts'),
      summary: "The policy's rollout plan and the operator's actions",
      description: `${readers} No plan: 404.`,
      request: { path: rolloutPath },
      responses: { 200: { description: 'the plan', schema: rolloutResponse }, ...errors(400, 401, 403, 404) },
    },
    {
      method: 'PUT',
      path: P,
      operationId: 'putRollout',
      handler: () => import('./put-rollout.ts'),
      summary: 'Set the rollout plan',
      description: `${writers} Kept apart from the policy, so a PUT of the policy (upstream's \`hzn\`) leaves it.`,
      request: { path: rolloutPath, body: rolloutPlanBody },
      responses: { 201: okResponse('set'), ...errors(400, 401, 403, 404) },
    },
    {
      method: 'DELETE',
      path: P,
      operationId: 'deleteRollout',
      handler: () => import('./delete-rollout.ts'),
      summary: 'Remove the rollout plan (the policy goes back to moving every node at once)',
      description: writers,
      request: { path: rolloutPath },
      responses: { 204: { description: 'removed' }, ...errors(400, 401, 403, 404) },
    },
    {
      method: 'GET',
      path: `${P}/status`,
      operationId: 'getRolloutStatus',
      handler: () => import('./get-status.ts'),
      summary:
        'The statuses the agbots reported: counts per node state, failures by reason, the failure rate, the last decision',
      description: `${readers} No plan: 404. One Query.`,
      request: { path: rolloutPath },
      responses: {
        200: { description: 'the statuses', schema: statusesResponse },
        ...errors(400, 401, 403, 404),
      },
    },
    {
      method: 'PUT',
      path: `${P}/status`,
      operationId: 'putRolloutStatus',
      handler: () => import('./put-status.ts'),
      summary: "An agbot's report of the rollout",
      description:
        'Agbots that serve the policy (its row or `*` of the org); everyone else 403. No plan: 404.',
      request: { path: rolloutPath, body: rolloutStatusBody },
      responses: { 201: okResponse('stored'), ...errors(400, 401, 403, 404) },
    },
    {
      method: 'GET',
      path: `${P}/plan`,
      operationId: 'getRolloutDryRun',
      handler: () => import('./get-dry-run.ts'),
      summary: 'The dry run: which nodes go in which wave',
      description: `${readers} As each serving agbot last computed it from the nodes it holds agreements with; \`current\` says whether it reflects the plan as it is now. No plan: 404.`,
      request: { path: rolloutPath },
      responses: { 200: { description: 'the waves', schema: dryRunResponse }, ...errors(400, 401, 403, 404) },
    },
    action('pauseRollout', 'pause', () => import('./pause-rollout.ts'), 'Stop admitting nodes', pauseBody),
    action(
      'resumeRollout',
      'resume',
      () => import('./resume-rollout.ts'),
      'Go on; the failures so far no longer count toward the threshold',
      resumeBody,
    ),
    action(
      'promoteRollout',
      'promote',
      () => import('./promote-rollout.ts'),
      'Approve a manual wave (default: the next one), skipping the soak',
      promoteBody,
    ),
    action(
      'abortRollout',
      'abort',
      () => import('./abort-rollout.ts'),
      "Abort: pause, or roll the updated nodes back (default: the plan's onAbort)",
      abortBody,
    ),
    action(
      'retryRollout',
      'retry',
      () => import('./retry-rollout.ts'),
      'Put the failed nodes (or the named ones) back to waiting',
      retryBody,
    ),
  ],
});
