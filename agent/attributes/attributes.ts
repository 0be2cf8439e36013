import { randomUUID } from 'node:crypto';
import type { AttributeBody, AttributePatch } from '../api/attribute.schema.ts';
import { AgentError, badInput } from '../ground/errors.ts';
import { loadNode, nodeSource } from '../node/record.ts';
import type { AgentContext } from '../runtime/context.ts';
import { checkMappings, mergeMappings, PATCHABLE } from './mappings.ts';
import { type Attribute, loadAttributes, type ServiceSpec, saveAttributes } from './store.ts';

/** A validated attribute from a request body (`where` prefixes the fields named in a 400). */
export function buildAttribute(id: string, body: AttributeBody, where = 'mappings'): Attribute {
  return {
    id,
    type: body.type,
    label: body.label,
    publishable: body.publishable,
    host_only: body.host_only,
    service_specs: body.service_specs ?? [],
    mappings: checkMappings(body.type, body.mappings, where),
  };
}

const notFound = (id: string) => new AgentError(404, `attribute ${id} not found`, 'id');

/** POST: a new id; the same attribute twice (type, services, label and mappings) → 409. */
export function createAttribute(ctx: AgentContext, body: AttributeBody): Attribute {
  const attribute = buildAttribute(randomUUID(), body);
  const all = loadAttributes(ctx.store);
  if (all.some((other) => sameAttribute(other, attribute)))
    throw new AgentError(409, 'an identical attribute already exists', 'attribute');
  saveAttributes(ctx.store, [...all, attribute]);
  event(ctx, 'create_attribute', `New attribute ${attribute.id}: ${attribute.type} ${attribute.label}.`);
  return attribute;
}

/** PUT: full replacement of an existing attribute (type included). */
export function replaceAttribute(ctx: AgentContext, id: string, body: AttributeBody): Attribute {
  return update(ctx, id, () => buildAttribute(id, body));
}

/**
 * PATCH: fields given replace the stored ones; service specs are added to the stored ones and
 * mappings merged key by key. Metering and agreement-protocol attributes cannot be patched.
 */
export function patchAttribute(ctx: AgentContext, id: string, patch: AttributePatch): Attribute {
  return update(ctx, id, (current) => {
    if (patch.type !== current.type)
      throw badInput(`the attribute is a ${current.type}, not a ${patch.type}`, 'type');
    if (!PATCHABLE.includes(current.type)) throw badInput('partial update unsupported', 'type');
    const mappings = mergeMappings(current.type, current.mappings, patch.mappings ?? {});
    return {
      ...current,
      label: patch.label ?? current.label,
      publishable: patch.publishable ?? current.publishable,
      host_only: patch.host_only ?? current.host_only,
      service_specs: unionSpecs(current.service_specs, patch.service_specs ?? []),
      mappings: checkMappings(current.type, mappings, 'mappings'),
    };
  });
}

export function deleteAttribute(ctx: AgentContext, id: string): Attribute {
  const all = loadAttributes(ctx.store);
  const found = all.find((a) => a.id === id);
  if (!found) throw notFound(id);
  saveAttributes(
    ctx.store,
    all.filter((a) => a.id !== id),
  );
  event(ctx, 'delete_attribute', `Deleted attribute ${id}: ${found.type} ${found.label}.`);
  return found;
}

function update(ctx: AgentContext, id: string, change: (current: Attribute) => Attribute): Attribute {
  const all = loadAttributes(ctx.store);
  const index = all.findIndex((a) => a.id === id);
  const current = all[index];
  if (!current) throw notFound(id);
  const next = change(current);
  all[index] = next;
  saveAttributes(ctx.store, all);
  event(ctx, 'update_attribute', `Updated attribute ${id}: ${next.type} ${next.label}.`);
  return next;
}

function unionSpecs(current: ServiceSpec[], added: ServiceSpec[]): ServiceSpec[] {
  const merged = [...current];
  for (const spec of added) {
    if (!merged.some((s) => s.url === spec.url && s.organization === spec.organization)) merged.push(spec);
  }
  return merged;
}

/** Same type, label, set of service specs and mappings (key order aside). */
function sameAttribute(a: Attribute, b: Attribute): boolean {
  const specs = (x: Attribute) => x.service_specs.map((s) => `${s.organization}/${s.url}`).sort();
  return (
    a.type === b.type &&
    a.label === b.label &&
    canonical(specs(a)) === canonical(specs(b)) &&
    canonical(a.mappings) === canonical(b.mappings)
  );
}

/** JSON with object keys sorted, so equal values compare equal. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1)))
      : v,
  );
}

/** Attribute events never carry mappings: they may hold passwords and registry tokens. */
function event(ctx: AgentContext, code: string, message: string): void {
  const node = loadNode(ctx.store);
  if (node) ctx.events.node('info', code, message, nodeSource(node));
}
