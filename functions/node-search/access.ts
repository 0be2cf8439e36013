import { authorize } from '#lib/auth/access';
import { type Caller, IBM_ORG } from '#lib/auth/caller';
import { getPattern } from '#tables/pattern/records';

/**
 * Searches and node health read every node of `org` (READ_ALL_NODES, docs/exchange-catalog.md#pattern-search): org
 * admins and agbots of the org, multi-tenant agbots, root. Plain users, nodes, hub admins and other
 * orgs get 403.
 */
export const authorizeSearch = (caller: Caller, org: string): void =>
  authorize(caller, { type: 'node', org, id: '*', exists: true }, 'READ');

/**
 * Pattern searches and node health: as authorizeSearch, and besides, an agbot of another org (not
 * a multi-tenant one) may search a public pattern for its own org's nodes, which is what it may
 * serve (functions/agbots/shared/entitlement.ts). Answers the node orgs such an agbot is held to;
 * undefined for every other caller (the orgs asked). Upstream answers 403 to that agbot, so an
 * org's agbot there cannot serve IBM's patterns it may declare (docs/compatibility.md).
 */
export async function authorizePatternSearch(
  caller: Caller,
  org: string,
  pattern: string,
): Promise<string[] | undefined> {
  if (caller.kind === 'agbot' && caller.org !== org && caller.org !== IBM_ORG) {
    if ((await getPattern(org, pattern))?.public === true) return [caller.org];
  }
  authorizeSearch(caller, org);
  return undefined;
}

/** The node orgs asked, less those outside `heldTo` (authorizePatternSearch's answer). */
export const askedWithin = (asked: string[], heldTo: string[] | undefined): string[] =>
  heldTo ? asked.filter((org) => heldTo.includes(org)) : asked;
