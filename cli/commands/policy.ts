import type { Command } from 'commander';
import { AgentClient } from '../agent-client.ts';
import { act, type Base, group, leaf, str } from '../command-kit.ts';
import type { Ctx } from '../context.ts';
import { readJsonFile, requireObject } from '../input-file.ts';
import { printJson } from '../output.ts';
import { confirmOrExit } from '../prompt.ts';

type Json = Record<string, unknown>;

const READ_ONLY_BUILTINS = [
  'openhorizon.cpu',
  'openhorizon.arch',
  'openhorizon.memory',
  'openhorizon.hardwareId',
  'openhorizon.kubernetesVersion',
  'openhorizon.kubernetesNamespace',
  'openhorizon.kubernetesNamespaceScoped',
  'openhorizon.operatingSystem',
  'openhorizon.containerized',
];

/** `hzn policy list|update|remove` against the agent (docs/hzn-behaviour.md#hzn-policy). */
export function policyCommands(program: Command, base: Base): void {
  const policy = group(program, ['policy', 'pol'], 'List and manage policy for this Horizon edge node.');

  act(base, leaf(policy, ['list', 'ls'], "Display this edge node's policy."), async (ctx) => {
    const body = await new AgentClient(ctx).getJson<Json>('node/policy');
    printJson(ctx.io, body, { escapeHtml: false, extraLine: true });
  });

  const update = leaf(policy, ['update', 'up'], "Create or replace the node's policy.").requiredOption(
    '-f, --input-file <file>',
    'The JSON input file name containing the node policy. Specify -f- to read from stdin.',
  );
  act(base, update, async (ctx, _args, opts) => {
    const file = str(opts.inputFile) as string;
    const body = requireObject(await readJsonFile(ctx, file), file);
    notePolicy(ctx, body);
    await new AgentClient(ctx).expect('POST', 'node/policy', [200, 201], body);
    ctx.io.out(
      'Updating Horizon node policy and re-evaluating all agreements based on this node policy. Existing agreements might be cancelled and re-negotiated.\n',
    );
  });

  const remove = leaf(policy, ['remove', 'rm'], "Remove the node's policy.").option(
    '-f, --force',
    'Skip the are you sure prompt.',
  );
  act(base, remove, async (ctx, _args, opts) => {
    await confirmOrExit(ctx, 'Are you sure you want to remove the node policy?', opts.force === true);
    await new AgentClient(ctx).expect('DELETE', 'node/policy', [200, 204]);
    ctx.io.out(
      'Removing Horizon node policy and re-evaluating all agreements. Existing agreements might be cancelled and re-negotiated.\n',
    );
  });
}

/** The note and warning upstream prints before sending a node policy (also `register --policy`). */
export function notePolicy(ctx: Ctx, policy: Json): void {
  const deployment = (policy.deployment ?? {}) as Json;
  const empty = (v: unknown) => !Array.isArray(v) || v.length === 0;
  if (empty(deployment.properties) && empty(deployment.constraints))
    ctx.io.out(
      "Note: No properties and constraints are specified under 'deployment' attribute. The top level properties and constraints will be used.\n",
    );
  const names = Array.isArray(policy.properties)
    ? (policy.properties as Json[])
        .map((p) => p?.name)
        .filter((n): n is string => READ_ONLY_BUILTINS.includes(n as string))
    : [];
  if (names.length > 0)
    ctx.io.out(
      `Warning: built-in properties ${names.join(', ')} are read-only. The given value will be ignored.\n`,
    );
}
