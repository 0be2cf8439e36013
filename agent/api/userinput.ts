import type { UserInputEntry } from '../exchange/types.ts';
import { badInput, notRegistered } from '../ground/errors.ts';
import { loadUserInput } from '../node/local.ts';
import { isActive, loadNode, nodeSource } from '../node/record.ts';
import { archMatches, isVersionRange, mergeUserInput, normalizeUserInput } from '../node/userinput.ts';
import type { AgentContext } from '../runtime/context.ts';
import { writeThrough } from '../sync/write-through.ts';
import { logged } from './logged.ts';
import type { RoutesPlugin } from './plugin.ts';
import { userInputBody } from './userinput.schema.ts';
import { parseBody } from './validation.ts';

export const userInputRoutes: RoutesPlugin = async (app, { ctx }) => {
  // normalizeUserInput copies the allow-listed fields: the stored list never reaches the response.
  app.get('/node/userinput', async () => normalizeUserInput(loadUserInput(ctx.store)));

  // Replace the whole list (PUT is upstream's alias of POST).
  app.route({
    method: ['POST', 'PUT'],
    url: '/node/userinput',
    handler: async (req, reply) => {
      const entries = parseEntries(ctx, req.body);
      await logged(ctx, 'error_userinput_update', 'updating node user input', () =>
        writeThrough(ctx, 'userInput', () => entries),
      );
      event(ctx, `New node user input: ${JSON.stringify(entries)}`);
      return reply.code(201).send(entries);
    },
  });

  // Merge into the current list; answers the patch (upstream).
  app.patch('/node/userinput', async (req, reply) => {
    const patch = parseEntries(ctx, req.body);
    await logged(ctx, 'error_userinput_patch', 'patching node user input', () =>
      writeThrough(ctx, 'userInput', (_node, current) => mergeUserInput(current, patch)),
    );
    event(ctx, `New node user input: ${JSON.stringify(patch)}`);
    return reply.code(201).send(patch);
  });

  app.delete('/node/userinput', async (_req, reply) => {
    if (!isActive(loadNode(ctx.store))) throw notRegistered();
    if (loadUserInput(ctx.store).length === 0) {
      event(ctx, 'No node user input to delete');
      return reply.code(204).send();
    }
    await logged(ctx, 'error_userinput_update', 'deleting node user input', () =>
      writeThrough(ctx, 'userInput', () => []),
    );
    event(ctx, 'Deleted all node user input');
    return reply.code(204).send();
  });
};

/** Shape first, then registration (404), then the rules that need the node. */
function parseEntries(ctx: AgentContext, body: unknown): UserInputEntry[] {
  if (!Array.isArray(body)) {
    throw badInput('Input body could not be deserialized to node/userinput object: expected a list', 'body');
  }
  const entries = normalizeUserInput(parseBody(userInputBody, body, 'node.userinput', 'node/userinput'));
  if (!isActive(loadNode(ctx.store))) throw notRegistered();
  entries.forEach((entry, index) => {
    const where = `node.userinput[${index}]`;
    if (!isVersionRange(entry.serviceVersionRange)) {
      throw badInput(
        `versionRange ${entry.serviceVersionRange} cannot be converted to a version expression`,
        `${where}.serviceVersionRange`,
      );
    }
    if (entry.serviceArch && !archMatches(entry.serviceArch, ctx.host.arch)) {
      throw badInput(
        `serviceArch: ${entry.serviceArch} should match node arch: ${ctx.host.arch} if serviceArch is not empty`,
        `${where}.serviceArch`,
      );
    }
  });
  return entries;
}

function event(ctx: AgentContext, message: string): void {
  const node = loadNode(ctx.store);
  if (node) ctx.events.node('info', 'update_node_userinput', message, nodeSource(node));
}
