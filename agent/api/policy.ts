import type * as z from 'zod';
import type { NodePolicy, PolicyProperty } from '../exchange/types.ts';
import { notRegistered } from '../ground/errors.ts';
import { loadPolicy } from '../node/local.ts';
import { isActive, loadNode, nodeSource } from '../node/record.ts';
import { EMPTY_POLICY_VIEW, enforceBuiltins, normalizePolicy } from '../policy/policy.ts';
import { validateConstraints, validateProperties } from '../policy/properties.ts';
import type { AgentContext } from '../runtime/context.ts';
import { writeThrough } from '../sync/write-through.ts';
import { logged } from './logged.ts';
import type { RoutesPlugin } from './plugin.ts';
import { policyBody, policyPatch } from './policy.schema.ts';
import { parseBody } from './validation.ts';

export const policyRoutes: RoutesPlugin = async (app, { ctx }) => {
  app.get('/node/policy', async () => {
    // normalizePolicy copies the allow-listed fields: the stored policy never reaches the response.
    const policy = loadPolicy(ctx.store);
    return policy ? normalizePolicy(policy) : EMPTY_POLICY_VIEW;
  });

  // Replace the whole policy (PUT is upstream's alias of POST). Built-ins are enforced.
  app.route({
    method: ['POST', 'PUT'],
    url: '/node/policy',
    handler: async (req, reply) => {
      const body = parseBody(policyBody, req.body, '', 'node/policy');
      requireNode(ctx);
      const given = normalizePolicy(body);
      validate(given);
      const { value } = await logged(ctx, 'error_policy_update', 'creating or replacing node policy', () =>
        writeThrough(ctx, 'policy', (_node, current) => enforceBuiltins(given, ctx.host, current)),
      );
      event(ctx, 'update_node_policy', `New node policy: ${JSON.stringify(value)}`);
      return reply.code(201).send(value);
    },
  });

  // Apply each field given: properties merged by name, the others replaced.
  app.patch('/node/policy', async (req, reply) => {
    const patch = parseBody(policyPatch, req.body, '', 'node/policy');
    requireNode(ctx);
    const given = normalizePolicy(patch);
    validate(given);
    const { value } = await logged(ctx, 'error_policy_patch', 'patching node policy', () =>
      writeThrough(ctx, 'policy', (_node, current) =>
        enforceBuiltins(patched(current, patch, given), ctx.host, current),
      ),
    );
    event(ctx, 'update_node_policy', `New node policy: ${JSON.stringify(value)}`);
    return reply.code(201).send(value);
  });

  app.delete('/node/policy', async (_req, reply) => {
    requireNode(ctx);
    await logged(ctx, 'error_policy_update', 'deleting node policy', () =>
      writeThrough(ctx, 'policy', () => undefined),
    );
    event(ctx, 'delete_node_policy', 'Deleted node policy');
    return reply.code(204).send();
  });
};

function requireNode(ctx: AgentContext): void {
  if (!isActive(loadNode(ctx.store))) throw notRegistered();
}

function validate(policy: NodePolicy): void {
  validateProperties(policy.properties, 'properties');
  validateConstraints(policy.constraints, 'constraints');
  for (const name of ['deployment', 'management'] as const) {
    validateProperties(policy[name].properties, `${name}.properties`);
    validateConstraints(policy[name].constraints, `${name}.constraints`);
  }
}

function patched(
  current: NodePolicy | undefined,
  patch: z.output<typeof policyPatch>,
  given: NodePolicy,
): NodePolicy {
  const base = current ?? normalizePolicy({});
  const result: NodePolicy = { ...base };
  if (patch.properties) result.properties = mergeProperties(base.properties, given.properties);
  if (patch.constraints) result.constraints = given.constraints;
  if (patch.deployment) result.deployment = given.deployment;
  if (patch.management) result.management = given.management;
  if (patch.label !== undefined) result.label = patch.label;
  if (patch.description !== undefined) result.description = patch.description;
  return result;
}

/** Same name → replaced in place; new names appended. */
function mergeProperties(base: PolicyProperty[], changes: PolicyProperty[]): PolicyProperty[] {
  const merged = [...base];
  for (const change of changes) {
    const index = merged.findIndex((p) => p.name === change.name);
    if (index >= 0) merged[index] = change;
    else merged.push(change);
  }
  return merged;
}

function event(ctx: AgentContext, code: string, message: string): void {
  const node = loadNode(ctx.store);
  if (node) ctx.events.node('info', code, message, nodeSource(node));
}
