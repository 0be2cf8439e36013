import { ATTRIBUTES_KEY } from '../attributes/store.ts';
import type { NodePolicy, RegisteredService, UserInputEntry } from '../exchange/types.ts';
import { NMP_KEYS } from '../nmp/store.ts';
import { SERVICE_CONFIG_KEY } from '../services/config-store.ts';
import type { Store } from '../store/store.ts';

/**
 * The documents kept in sync with the Exchange, and the sync bookkeeping beside them: user input
 * and registered services are attributes of the Exchange node, the policy its own resource.
 */
export type SyncKind = 'userInput' | 'policy' | 'services';
/** What the sync workers push: the documents above, and the node management statuses. */
export type PushKind = SyncKind | 'management';

const KEYS = {
  userInput: 'node.userInput',
  policy: 'node.policy',
  services: 'node.registeredServices',
} as const;

/** `lastUpdated` of the Exchange copy last compared with the local one. */
export const SEEN = {
  userInput: 'sync.node.lastUpdated',
  policy: 'sync.policy.lastUpdated',
  services: 'sync.services.lastUpdated',
} as const;

/** Local documents of a registration besides the synced ones (gone with the registration). */
const REGISTRATION_KEYS = [ATTRIBUTES_KEY, SERVICE_CONFIG_KEY, ...Object.values(NMP_KEYS)];

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

export const loadRegisteredServices = (store: Store): RegisteredService[] =>
  store.get<RegisteredService[]>(KEYS.services) ?? [];

export function saveRegisteredServices(store: Store, services: RegisteredService[]): void {
  store.set(KEYS.services, services);
}

export type SyncValue<K extends SyncKind> = K extends 'userInput'
  ? UserInputEntry[]
  : K extends 'policy'
    ? NodePolicy | undefined
    : RegisteredService[];

export function loadLocal<K extends SyncKind>(store: Store, kind: K): SyncValue<K> {
  if (kind === 'userInput') return loadUserInput(store) as SyncValue<K>;
  if (kind === 'policy') return loadPolicy(store) as SyncValue<K>;
  return loadRegisteredServices(store) as SyncValue<K>;
}

export function saveLocal<K extends SyncKind>(store: Store, kind: K, value: SyncValue<K>): void {
  if (kind === 'userInput') saveUserInput(store, value as UserInputEntry[]);
  else if (kind === 'policy') savePolicy(store, value as NodePolicy | undefined);
  else saveRegisteredServices(store, value as RegisteredService[]);
}

/** Forgets everything about the registration (node record aside). */
export function clearLocal(store: Store): void {
  for (const key of [...Object.values(KEYS), ...Object.values(SEEN), ...REGISTRATION_KEYS]) store.delete(key);
  store.clearPending();
}
