import type * as z from 'zod';
import { type Caller, roleOf } from '#lib/auth/caller';
import { likeMatcher } from '#lib/like';
import type { NodeRecord } from '#tables/node/records';
import type { listNodesQuery } from './schemas.ts';

type ListQuery = z.infer<typeof listNodesQuery>;

/**
 * The list's query filters (docs/exchange.md#node-list). `owner` applies only to org admins and agbots; an
 * unset clusterNamespace (stored "") matches no pattern, as upstream's NULL does not.
 */
export function nodeListFilter(query: ListQuery, caller: Caller): (node: NodeRecord) => boolean {
  const tests: ((node: NodeRecord) => boolean)[] = [];
  const like = (pattern: string | undefined, read: (node: NodeRecord) => string) => {
    if (pattern === undefined) return;
    const matches = likeMatcher(pattern);
    tests.push((node) => matches(read(node)));
  };
  like(query.idfilter, (node) => `${node.org}/${node.id}`);
  like(query.name, (node) => node.name);
  like(query.arch, (node) => node.arch);
  if (query.clusternamespace !== undefined) {
    const matches = likeMatcher(query.clusternamespace);
    tests.push((node) => Boolean(node.clusterNamespace) && matches(node.clusterNamespace));
  }
  if (roleOf(caller) === 'AdminUser' || caller.kind === 'agbot') like(query.owner, (node) => node.owner);
  const scoped = query.isNamespaceScoped;
  if (scoped !== undefined) tests.push((node) => node.isNamespaceScoped === scoped);
  if (query.nodetype === 'cluster') tests.push((node) => node.nodeType === 'cluster');
  if (query.nodetype === 'device') tests.push((node) => node.nodeType === '' || node.nodeType === 'device');
  return (node) => tests.every((test) => test(node));
}
