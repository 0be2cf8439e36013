/**
 * Who may bind which secret, and which node may receive it: the one rule the Exchange applies
 * when a deployment policy or pattern is written and again when an agbot reads a value, and the
 * agbot applies when it picks the names for one node. The rule itself is in the README
 * ("Secrets"); upstream's Vault ACLs decide only direct reads, not bindings.
 */
import { parseSecretName, type SecretName } from './names.ts';

/** The author of a binding: the policy's or pattern's owner (and, on a write, its writer). */
export type BindingAuthor =
  | { kind: 'root' }
  | { kind: 'user'; org: string; id: string; admin: boolean }
  /** Any other identity (a hub admin, a user of another org): may bind org secrets only. */
  | { kind: 'other' };

/** The secrets-manager name a binding gives: upstream drops a leading `/`. */
const boundName = (managerSecret: string): string => managerSecret.replace(/^\/+/, '');

/**
 * Why `author` may not bind `name` in a policy or pattern of `org`, or undefined when it may.
 * Org secrets: any writer of the policy. `user/<u>/…`: user `u` only. Node secrets: whoever may
 * read them directly (an org admin for `node/<n>/…`, user `u` for `user/<u>/node/<n>/…`).
 */
export function bindingRefusal(author: BindingAuthor, org: string, name: string): string | undefined {
  const parsed = parseSecretName(boundName(name));
  if ('error' in parsed) return parsed.error;
  const sameOrgUser = author.kind === 'user' && author.org === org ? author : undefined;
  switch (parsed.kind) {
    case 'org':
      return undefined;
    case 'orgNode':
      return sameOrgUser?.admin ? undefined : `only an admin of org '${org}' may bind node secrets`;
    case 'user':
    case 'userNode':
      return sameOrgUser?.id === parsed.user
        ? undefined
        : `only user '${org}/${parsed.user}' may bind their own secrets`;
  }
}

/**
 * The names to read for one bound secret and one node, most specific first: with
 * `enableNodeLevelSecrets` the node's own secret (`node/<n>/x`, `user/<u>/node/<n>/x`), then the
 * org or user secret.
 */
export function nodeLevelCandidates(managerSecret: string, nodeId: string, nodeLevel: boolean): string[] {
  const name = boundName(managerSecret);
  if (!nodeLevel) return [name];
  const user = /^user\/([^/]+)\/(.+)$/.exec(name);
  return [user ? `user/${user[1]}/node/${nodeId}/${user[2]}` : `node/${nodeId}/${name}`, name];
}

/** The node a secret is for, when it is a node secret (`node/<n>/…`, `user/<u>/node/<n>/…`). */
function nodeOfSecret(name: string): string | undefined {
  const parsed: SecretName | { error: string } = parseSecretName(boundName(name));
  if ('error' in parsed) return undefined;
  return parsed.kind === 'orgNode' || parsed.kind === 'userNode' ? parsed.node : undefined;
}

/** Whether node `nodeOrg/nodeId` may receive secret `name` of org `secretsOrg`: a node secret only its own node. */
export function nodeMayReceive(name: string, secretsOrg: string, nodeOrg: string, nodeId: string): boolean {
  const node = nodeOfSecret(name);
  return node === undefined || (node === nodeId && nodeOrg === secretsOrg);
}

/** One secret entry of a binding: the bound name and whether node-level names derive from it. */
interface BoundEntry {
  managerSecret: string;
  nodeLevel: boolean;
}

/**
 * Whether reading `name` is delivering one of `entries`: the bound name itself, or (with
 * `enableNodeLevelSecrets`) the node-level name derived from it for some node.
 */
export function deliversEntry(name: string, entries: readonly BoundEntry[]): boolean {
  return entries.some((entry) => {
    const bound = boundName(entry.managerSecret);
    if (bound === name) return true;
    if (!entry.nodeLevel) return false;
    const node = nodeOfSecret(name);
    return node !== undefined && nodeLevelCandidates(bound, node, true)[0] === name;
  });
}

/** Every secret entry of a policy's or pattern's `secretBinding`. */
export const boundEntries = (
  bindings: readonly {
    secrets?: readonly Record<string, string>[] | null;
    enableNodeLevelSecrets?: boolean | null;
  }[],
): BoundEntry[] =>
  bindings.flatMap((binding) =>
    (binding.secrets ?? []).flatMap((map) =>
      Object.values(map).map((managerSecret) => ({
        managerSecret,
        nodeLevel: binding.enableNodeLevelSecrets === true,
      })),
    ),
  );
