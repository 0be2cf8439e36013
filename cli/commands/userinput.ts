import type { Command } from 'commander';
import { AgentClient } from '../agent-client.ts';
import { act, type Base, group, leaf, str } from '../command-kit.ts';
import { EXIT, fatal } from '../errors.ts';
import { readJsonFile } from '../input-file.ts';
import { printJson } from '../output.ts';
import { confirmOrExit } from '../prompt.ts';

/** `hzn userinput list|add|update|remove` against the agent (docs/hzn-behaviour.md#hzn-userinput). */
export function userinputCommands(program: Command, base: Base): void {
  const userinput = group(
    program,
    ['userinput', 'u'],
    'List or manage the service user inputs of this node.',
  );

  act(base, leaf(userinput, ['list', 'ls'], 'List the service user inputs of this node.'), async (ctx) => {
    const body = await new AgentClient(ctx).getJson('node/userinput');
    printJson(ctx.io, body, { escapeHtml: false, extraLine: true });
  });

  for (const [names, method, text] of [
    [['add'], 'POST', 'Add a new user input object or overwrite the current user input object.'],
    [['update', 'up'], 'PATCH', 'Update an existing user input object.'],
  ] as const) {
    const cmd = leaf(userinput, [...names], text).requiredOption(
      '-f, --file-path <file>',
      'The file path to the json file with the user input object. Specify -f- to read from stdin.',
    );
    act(base, cmd, async (ctx, _args, opts) => {
      const file = str(opts.filePath) as string;
      const body = await readJsonFile(ctx, file);
      if (!Array.isArray(body))
        throw fatal(
          EXIT.JSON_PARSING_ERROR,
          `failed to unmarshal JSON input file ${file}: the file must hold a JSON array of user inputs`,
        );
      await new AgentClient(ctx).expect(method, 'node/userinput', [200, 201], body);
      ctx.io.out('Horizon node user inputs updated.\n');
    });
  }

  const remove = leaf(
    userinput,
    ['remove', 'rm'],
    'Remove the user inputs that are currently registered on this node.',
  ).option('-f, --force', 'Skip the are you sure prompt.');
  act(base, remove, async (ctx, _args, opts) => {
    await confirmOrExit(ctx, 'Are you sure you want to remove the node user inputs?', opts.force === true);
    await new AgentClient(ctx).expect('DELETE', 'node/userinput', [200, 204]);
    ctx.io.out('Horizon user inputs removed.\n');
  });
}
