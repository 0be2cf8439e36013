import type { NodePolicy, UserInputEntry } from '../exchange/types.ts';
import type { Store } from '../store/store.ts';

/** The two documents kept in sync with the Exchange, and the sync bookkeeping beside them. */
export type SyncKind = 'userInput' | 'policy';

const KEYS = { userInput: 'node.userInput', policy: 'node.policy' } as const;

/** `lastUpdated` of the Exchange copy last compared with the local one. */
export const SEEN = { userInput: 'sync.node.lastUpdated', policy: 'sync.policy.lastUpdated' } as const;

export const loadUserInput = (store: Store): UserInputEntry[] =>
  store.get<UserInputEntry[]>(KEYS.userInput) ?? [];
export const loadPolicy = (store: Store): NodePolicy | undefined => store.get<NodePolicy>(KEYS.policy);

export function saveUserInput(store: Store, entries: UserInputEntry[]): void {
  store.set(KEYS.userInput, entries);
}

export function savePolicy(store: Store, policy: NodePolicy | undefined): void {
  if (policy) store.set(KEYS.policy, policy);
  else store.delete(KEYS.policy);
}

export type SyncValue<K extends SyncKind> = K extends 'userInput' ? UserInputEntry[] : NodePolicy | undefined;

export function loadLocal<K extends SyncKind>(store: Store, kind: K): SyncValue<K> {
  return (kind === 'userInput' ? loadUserInput(store) : loadPolicy(store)) as SyncValue<K>;
}

export function saveLocal<K extends SyncKind>(store: Store, kind: K, value: SyncValue<K>): void {
  if (kind === 'userInput') saveUserInput(store, value as UserInputEntry[]);
  else savePolicy(store, value as NodePolicy | undefined);
}

/** Forgets everything about the registration (node record aside). */
export function clearLocal(store: Store): void {
  for (const key of [...Object.values(KEYS), ...Object.values(SEEN)]) store.delete(key);
  store.clearPending();
}
