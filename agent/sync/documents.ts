import type { PushKind, SyncKind } from '../runtime/sync-kinds.ts';
import type { SyncedDocument } from './document.ts';
import { managementDocument } from './management.ts';
import { policyDocument } from './policy.ts';
import { servicesDocument } from './services.ts';
import { userInputDocument } from './user-input.ts';

/** The documents written through to the Exchange as a whole, by kind. */
export const NODE_DOCUMENTS = {
  userInput: userInputDocument,
  policy: policyDocument,
  services: servicesDocument,
} as const;

/** Every synced document by kind; a poll brings them in in this order. */
export const DOCUMENTS: Record<PushKind, SyncedDocument> = {
  ...NODE_DOCUMENTS,
  management: managementDocument,
};

/** The value a document of that kind holds locally. */
export type SyncValue<K extends SyncKind> = ReturnType<(typeof NODE_DOCUMENTS)[K]['load']>;
