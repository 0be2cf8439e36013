import { isTaken, type TakenOutcome } from '#lib/auth/identity-taken';
import { CONFLICT, type Conflict, optimisticUpdate } from '../kernel/optimistic-update.ts';
import { getOrg } from '../org/records.ts';
import { getOrgCounts, getUserCounts } from '../org/stats.ts';
import { createNode, type NodeChanges, type NodeRecord, updateNode } from './records.ts';

/**
 * The node PUT/PATCH write path as one operation (docs/exchange.md#node-put/#node-patch): update the node
 * read with the authorization if it is still as read, else create it (counted, within the org's
 * and the owner's limits), and when another request changed or created it meanwhile, read it again
 * and start over. The caller's rules come in as `steps`, so they run at the right point of every
 * attempt and cannot be reordered around the writes.
 */
interface SaveNodeRequest {
  org: string;
  id: string;
  /** What an update SETs (lastUpdated included; lastUpdated is the version the write checks). */
  changes: NodeChanges;
  /** PUT: the node to create when it is missing (owner, values). PATCH: none (a missing node is `missing`). */
  create?: { owner: string; values: NodeChanges; unlimited: boolean; maxNodesPerUser: number };
}

interface SaveNodeSteps {
  /** Reads the node again after a conflict, checking the caller's access to it again. */
  reread: () => Promise<NodeRecord | undefined>;
  /** Throws when the caller may not change this node so (run on every attempt, before the write). */
  checkExisting: (node: NodeRecord) => void;
  /** Throws when the caller may not create the node (run before a create). */
  checkCreate: () => void;
}

export type SaveNodeOutcome =
  | { outcome: 'updated' }
  /** `nearLimit`: the org's or the owner's limit, when at most 5% of it was left before this node. */
  | { outcome: 'created'; nearLimit?: number }
  | { outcome: 'missing' }
  | { outcome: 'no-org' }
  | { outcome: 'user-limit'; max: number }
  | { outcome: 'org-limit'; max: number; count: number }
  | { outcome: 'conflict' }
  /** `org/id` is already a user or an agbot: a node there would shadow it. */
  | { outcome: 'taken'; taken: TakenOutcome };

export async function saveNode(
  request: SaveNodeRequest,
  first: NodeRecord | undefined,
  steps: SaveNodeSteps,
): Promise<SaveNodeOutcome> {
  const saved = await optimisticUpdate(first, {
    write: (node) => saveOnce(request, node, steps),
    reread: steps.reread,
  });
  return saved === CONFLICT ? { outcome: 'conflict' } : saved;
}

/** One attempt: update the node as read, or create it; CONFLICT when another request got there first. */
async function saveOnce(
  request: SaveNodeRequest,
  node: NodeRecord | undefined,
  steps: SaveNodeSteps,
): Promise<SaveNodeOutcome | Conflict> {
  if (node) {
    steps.checkExisting(node);
    // Upstream's operations: PUT created/modified, PATCH modified.
    const operation = request.create ? 'created/modified' : 'modified';
    return (await updateNode(node, request.changes, operation)) ? { outcome: 'updated' } : CONFLICT;
  }
  if (!request.create) return { outcome: 'missing' };
  steps.checkCreate();
  return (await createWithinLimits(request, request.create)) ?? CONFLICT;
}

/** Creates the node within the limits; undefined when it exists already (another request made it). */
async function createWithinLimits(
  { org, id }: SaveNodeRequest,
  create: NonNullable<SaveNodeRequest['create']>,
): Promise<SaveNodeOutcome | undefined> {
  const [ownerOrg = '', ownerUser = ''] = splitOnce(create.owner);
  const [orgRecord, orgCounts, userCounts] = await Promise.all([
    getOrg(org),
    getOrgCounts(org),
    getUserCounts(ownerOrg, ownerUser),
  ]);
  if (!orgRecord) return { outcome: 'no-org' };
  // Root is not limited (upstream skips both checks for it).
  const limits = create.unlimited
    ? { org: 0, user: 0 }
    : { org: orgRecord.limits.maxNodes, user: create.maxNodesPerUser };
  const record = {
    pattern: '',
    publicKey: '',
    ...create.values,
    org,
    id,
    owner: create.owner,
  } as NodeRecord;
  const outcome = await createNode(record, limits);
  if (outcome === 'exists') return undefined;
  if (outcome === 'no-org') return { outcome: 'no-org' };
  if (isTaken(outcome)) return { outcome: 'taken', taken: outcome };
  if (outcome === 'user-limit') return { outcome: 'user-limit', max: limits.user };
  if (outcome === 'org-limit') {
    return { outcome: 'org-limit', max: limits.org, count: Math.max(orgCounts.nodes, limits.org) };
  }
  // Upstream warns when at most 5% of a limit was left before this node.
  const nearly = (max: number, before: number) => max > 0 && max - before <= max * 0.05;
  if (nearly(limits.org, orgCounts.nodes)) return { outcome: 'created', nearLimit: limits.org };
  if (nearly(limits.user, userCounts.nodes)) return { outcome: 'created', nearLimit: limits.user };
  return { outcome: 'created' };
}

/** `org/username` → [org, username]. */
const splitOnce = (owner: string): [string, string] => {
  const slash = owner.indexOf('/');
  return [owner.slice(0, slash), owner.slice(slash + 1)];
};
