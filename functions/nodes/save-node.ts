import { hashCredential } from '#lib/auth/authenticate';
import { type Caller, isSuperUser } from '#lib/auth/caller';
import { identityTaken } from '#lib/auth/identity-taken';
import type { ExchangeConfig } from '#lib/config';
import { accessDenied, badInput, notFound } from '#lib/http/errors';
import type { NodeRecord } from '#tables/node/records';
import { type SaveNodeOutcome, saveNode as saveNodeRecord } from '#tables/node/save';
import { authorizeNode, type NodePath, nodeConflict, nodeNotFound, resourceId } from './access.ts';
import { putChanges } from './node-input.ts';
import { publicKeyNotToken } from './rules.ts';
import type { PutNodeBody } from './schemas.ts';

/** PUT /orgs/{org}/nodes/{node} once the body passed its checks: update or create (docs/exchange.md#node-put). */
interface SaveNode {
  caller: Caller;
  path: NodePath;
  body: PutNodeBody;
  noHeartbeat: boolean;
  now: string;
  config: ExchangeConfig;
}

const ADDED = 'node added or updated';

/** The write itself is tables/node/save.ts `saveNode`; here: the PUT's values, rules and answers. */
export async function saveNode(request: SaveNode, first: NodeRecord | undefined): Promise<string> {
  const { caller, path, body, noHeartbeat, now, config } = request;
  // Root may send token "" to mean "no change"; hash once, outside the retries.
  const tokenHash = body.token ? await hashCredential(body.token) : undefined;
  const changes = {
    ...putChanges(body, tokenHash),
    lastUpdated: now,
    ...(noHeartbeat ? {} : { lastHeartbeat: now }),
  };
  const create = {
    owner: caller.fullId,
    values: { ...changes, tokenHash: tokenHash ?? '' },
    unlimited: isSuperUser(caller),
    maxNodesPerUser: config.limits.maxNodes,
  };
  const saved = await saveNodeRecord({ org: path.organization, id: path.node, changes, create }, first, {
    reread: () => authorizeNode(caller, path, 'WRITE'),
    checkExisting: (node) => checkRegisteredNode(request, node),
    // A node can only update itself: this one was deleted after it authenticated.
    checkCreate: () => {
      if (caller.kind === 'node' || caller.kind === 'agbot') throw nodeNotFound(path);
    },
  });
  return answer(saved, path);
}

/** Once a node has a public key (or a pattern), only the node itself or root may re-send them. */
function checkRegisteredNode({ caller, path, body }: SaveNode, node: NodeRecord): void {
  if (caller.kind === 'node' || isSuperUser(caller)) return;
  const sendsPatternOrToken = body.pattern != null || body.token != null;
  if (!sendsPatternOrToken && body.publicKey == null) return;
  if (node.publicKey || (sendsPatternOrToken && node.pattern))
    throw badInput(publicKeyNotToken(resourceId(path)));
}

function answer(saved: SaveNodeOutcome, path: NodePath): string {
  switch (saved.outcome) {
    case 'updated':
      return ADDED;
    case 'created':
      return saved.nearLimit
        ? `The org ${path.organization} has reached 95% of the node limit: ${saved.nearLimit} nodes.`
        : ADDED;
    case 'no-org':
      throw notFound(`org '${path.organization}' not found`);
    case 'user-limit':
      throw accessDenied(`Access Denied: you are over the limit of ${saved.max} nodes`);
    case 'org-limit':
      throw accessDenied(
        `Access Denied: Your current total number of nodes, ${saved.count}, is either equal to or over the org limit of ${saved.max} nodes`,
      );
    case 'missing':
      throw nodeNotFound(path);
    case 'conflict':
      throw nodeConflict(path);
    case 'taken':
      throw identityTaken(path.organization, path.node, 'node', saved.taken);
  }
}
