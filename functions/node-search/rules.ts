import type { SearchNode } from '#tables/node/search';

/** What makes a node a candidate for an agreement (docs/exchange-catalog.md#pattern-search, #policy-search). */
interface Candidacy {
  /** `""` or `*` = any arch; otherwise the node's arch must equal it. */
  arch?: string | null | undefined;
  /** `<svcOrg>/<svcUrl>`: a node holding an agreement for it with a non-empty state is taken. */
  serviceUrl: string;
  /** Heartbeat no older than this ISO time (pattern search `secondsStale`). */
  heartbeatSince?: string | undefined;
}

/** Registered (a public key), has heartbeated, the right arch, and not already agreed for the service. */
export function isCandidate(node: SearchNode, rule: Candidacy): boolean {
  if (node.publicKey === '' || !node.lastHeartbeat) return false;
  if (rule.heartbeatSince && node.lastHeartbeat < rule.heartbeatSince) return false;
  if (rule.arch && rule.arch !== '*' && node.arch !== rule.arch) return false;
  return !Object.values(node.agreementServices).some((a) => a.url === rule.serviceUrl && a.state !== '');
}

/** A found node as upstream answers it (a stored nodeType "" is "device"). */
export const foundNode = (node: SearchNode) => ({
  id: `${node.org}/${node.id}`,
  nodeType: node.nodeType || 'device',
  publicKey: node.publicKey,
});

/** Node health (docs/exchange-catalog.md#pattern-node-health): the heartbeat and the agreements' times of each node. */
export const nodeHealth = (nodes: SearchNode[]) => ({
  nodes: Object.fromEntries(
    nodes.map((node) => [
      `${node.org}/${node.id}`,
      {
        lastHeartbeat: node.lastHeartbeat ?? '',
        agreements: Object.fromEntries(
          Object.entries(node.agreementServices).map(([id, a]) => [id, { lastUpdated: a.lastUpdated }]),
        ),
      },
    ]),
  ),
});

/** Node health's filter: heartbeated at or after `since` ("" = ever heartbeated). */
export const heartbeatSince =
  (since: string) =>
  (node: SearchNode): boolean =>
    Boolean(node.lastHeartbeat) && (node.lastHeartbeat ?? '') >= since;
