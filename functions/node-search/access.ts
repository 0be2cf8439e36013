import { authorize } from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';

/**
 * Searches and node health read every node of `org` (READ_ALL_NODES, docs/exchange-catalog.md#pattern-search): org
 * admins and agbots of the org, multi-tenant agbots, root. Plain users, nodes, hub admins and other
 * orgs get 403.
 */
export const authorizeSearch = (caller: Caller, org: string): void =>
  authorize(caller, { type: 'node', org, id: '*', exists: true }, 'READ');
