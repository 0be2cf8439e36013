import { authorize } from '#lib/auth/access';
import { type Caller, roleOf } from '#lib/auth/caller';

/**
 * Who reads an org's node summaries: whoever may list its nodes (GET /v1/orgs/{org}/nodes,
 * functions/nodes/list-nodes.ts): users (their own nodes), org admins, root, agbots of the org and
 * multi-tenant agbots; nodes and hub admins get 403. Returns the owner a plain user is narrowed to.
 */
export function authorizeNodeSummaries(caller: Caller, org: string): string | undefined {
  authorize(caller, { type: 'node', org, id: '#', exists: true }, 'READ');
  return roleOf(caller) === 'User' ? caller.fullId : undefined;
}
