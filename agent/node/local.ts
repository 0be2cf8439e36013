import { ATTRIBUTES_KEY } from '../attributes/store.ts';
import type { NodePolicy, RegisteredService, UserInputEntry } from '../exchange/types.ts';
import { NMP_KEYS } from '../nmp/store.ts';
import { SERVICE_CONFIG_KEY } from '../services/config-store.ts';
import type { Store } from '../store/store.ts';

/**
 * Where the synced documents (agent/sync) and their bookkeeping are stored: user input and
 * registered services are attributes of the Exchange node, the policy its own resource.
 */

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

/** Forgets everything about the registration (node record aside). */
export function clearLocal(store: Store): void {
  for (const key of [...Object.values(KEYS), ...Object.values(SEEN), ...REGISTRATION_KEYS]) store.delete(key);
  store.clearPending();
}
