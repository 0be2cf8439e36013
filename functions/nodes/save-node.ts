import { type Caller, isSuperUser } from '#lib/auth/caller';
import { hashSecret } from '#lib/auth/secrets';
import type { ExchangeConfig } from '#lib/config';
import { accessDenied, badInput, notFound } from '#lib/http/errors';
import { createNode, type NodeRecord, updateNode } from '#tables/node-records';
import { getOrg } from '#tables/org-records';
import { getOrgCounts, getUserCounts } from '#tables/stats';
import { CONFLICT, type NodePath, nodeNotFound, resourceId, retryOnConflict } from './access.ts';
import { putChanges } from './node-input.ts';
import { publicKeyNotToken } from './rules.ts';
import type { PutNodeBody } from './schemas.ts';

/** PUT /orgs/{org}/nodes/{node} once the body passed its checks: update or create (reference §11.1). */
export interface SaveNode {
  caller: Caller;
  path: NodePath;
  body: PutNodeBody;
  noHeartbeat: boolean;
  now: string;
  config: ExchangeConfig;
}

const ADDED = 'node added or updated';

export async function saveNode(request: SaveNode, first: NodeRecord | undefined): Promise<string> {
  const { body, noHeartbeat, now } = request;
  // Root may send token "" to mean "no change"; hash once, outside the retries.
  const tokenHash = body.token ? await hashSecret(body.token) : undefined;
  const changes = {
    ...putChanges(body, tokenHash),
    lastUpdated: now,
    ...(noHeartbeat ? {} : { lastHeartbeat: now }),
  };
  return retryOnConflict(request.caller, request.path, first, async (node) => {
    if (!node) return create(request, { ...changes, tokenHash: tokenHash ?? '' });
    checkRegisteredNode(request, node);
    return (await updateNode(node, changes)) ? ADDED : CONFLICT;
  });
}

/** Once a node has a public key (or a pattern), only the node itself or root may re-send them. */
function checkRegisteredNode({ caller, path, body }: SaveNode, node: NodeRecord): void {
  if (caller.kind === 'node' || isSuperUser(caller)) return;
  const sendsPatternOrToken = body.pattern != null || body.token != null;
  if (!sendsPatternOrToken && body.publicKey == null) return;
  if (node.publicKey || (sendsPatternOrToken && node.pattern))
    throw badInput(publicKeyNotToken(resourceId(path)));
}

type NodeValues = ReturnType<typeof putChanges> & { lastUpdated: string; tokenHash: string };

async function create(request: SaveNode, values: NodeValues): Promise<string | typeof CONFLICT> {
  const { caller, path, config } = request;
  // A node can only update itself: this one was deleted after it authenticated.
  if (caller.kind === 'node' || caller.kind === 'agbot') throw nodeNotFound(path);
  const [ownerOrg, ownerUser] = [caller.org, caller.id];
  const [org, orgCounts, userCounts] = await Promise.all([
    getOrg(path.organization),
    getOrgCounts(path.organization),
    getUserCounts(ownerOrg, ownerUser),
  ]);
  if (!org) throw notFound(`org '${path.organization}' not found`);
  // Root is not limited (upstream skips both checks for it).
  const unlimited = isSuperUser(caller);
  const limits = { org: unlimited ? 0 : org.limits.maxNodes, user: unlimited ? 0 : config.limits.maxNodes };
  const record: NodeRecord = {
    pattern: '',
    publicKey: '',
    ...values,
    org: path.organization,
    id: path.node,
    owner: caller.fullId,
  } as NodeRecord;
  const outcome = await createNode(record, limits);
  if (outcome === 'exists') return CONFLICT;
  if (outcome === 'no-org') throw notFound(`org '${path.organization}' not found`);
  if (outcome === 'user-limit')
    throw accessDenied(`Access Denied: you are over the limit of ${limits.user} nodes`);
  if (outcome === 'org-limit') {
    throw accessDenied(
      `Access Denied: Your current total number of nodes, ${Math.max(orgCounts.nodes, limits.org)}, is either equal to or over the org limit of ${limits.org} nodes`,
    );
  }
  // Upstream warns when at most 5% of a limit was left before this node.
  const nearly = (max: number, before: number) => max > 0 && max - before <= max * 0.05;
  if (nearly(limits.org, orgCounts.nodes)) return nearLimit(path.organization, limits.org);
  if (nearly(limits.user, userCounts.nodes)) return nearLimit(path.organization, limits.user);
  return ADDED;
}

const nearLimit = (org: string, max: number) =>
  `The org ${org} has reached 95% of the node limit: ${max} nodes.`;
