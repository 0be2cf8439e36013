/**
 * Secret names (docs/exchange-catalog.md#secret-names): `[A-Za-z0-9_/-]`, segments separated by `/`, at
 * most MAX_SECRET_NAME_LENGTH characters. The first segments say whose the secret is.
 */
export const MAX_SECRET_NAME_LENGTH = 256;

export type SecretName =
  | { kind: 'org'; name: string }
  | { kind: 'orgNode'; name: string; node: string }
  | { kind: 'user'; name: string; user: string }
  | { kind: 'userNode'; name: string; user: string; node: string };

const SEGMENT = /^[A-Za-z0-9_-]+$/;
const USER_MISSING = 'User must be specified in the API path';
const NODE_MISSING = 'Node must be specified in the API path';
const incorrect = (name: string, why: string) => `Incorrect secret name provided: '${name}' (${why})`;

/** The name's kind, or the reason it is refused (400). */
export function parseSecretName(name: string): SecretName | { error: string } {
  if (name.length === 0) return { error: incorrect(name, 'the name is empty') };
  if (name.length > MAX_SECRET_NAME_LENGTH)
    return { error: incorrect(name.slice(0, 40), `longer than ${MAX_SECRET_NAME_LENGTH} characters`) };
  const segments = name.split('/');
  if (segments.some((s) => s === ''))
    return { error: incorrect(name, 'a segment is empty: no leading, trailing or double `/`') };
  if (!segments.every((s) => SEGMENT.test(s)))
    return { error: incorrect(name, 'only letters, digits, `_`, `-` and `/` are allowed') };
  const [first, owner, third, fourth] = segments;
  if (first === 'node') {
    if (owner === undefined) return { error: NODE_MISSING };
    if (segments.length < 3)
      return { error: incorrect(name, 'a node secret needs a name after node/<node>/') };
    return { kind: 'orgNode', name, node: owner };
  }
  if (first !== 'user') return { kind: 'org', name };
  if (owner === undefined) return { error: USER_MISSING };
  if (segments.length < 3) return { error: incorrect(name, 'a user secret needs a name after user/<user>/') };
  if (third !== 'node') return { kind: 'user', name, user: owner };
  if (fourth === undefined) return { error: NODE_MISSING };
  if (segments.length < 5)
    return { error: incorrect(name, 'a user node secret needs a name after user/<user>/node/<node>/') };
  return { kind: 'userNode', name, user: owner, node: fourth };
}

/** The tree a list route reads: the names under `prefix`, shown with it removed. */
export type SecretTree =
  | { kind: 'org' }
  | { kind: 'orgNode'; node: string }
  | { kind: 'user'; user: string }
  | { kind: 'userNode'; user: string; node: string };

export function treePrefix(tree: SecretTree): string {
  switch (tree.kind) {
    case 'org':
      return '';
    case 'orgNode':
      return `node/${tree.node}/`;
    case 'user':
      return `user/${tree.user}/`;
    case 'userNode':
      return `user/${tree.user}/node/${tree.node}/`;
  }
}

/** Whether `name` (a valid full name) is in the tree: the org tree excludes `user/` and `node/`. */
export function inTree(name: string, tree: SecretTree): boolean {
  if (tree.kind === 'org') return !name.startsWith('user/') && !name.startsWith('node/');
  if (!name.startsWith(treePrefix(tree))) return false;
  // A user's own tree does not show its node secrets (they have their own list).
  return tree.kind !== 'user' || !name.startsWith(`${treePrefix(tree)}node/`);
}
