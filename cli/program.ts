import { Command, CommanderError } from 'commander';
import type { Base } from './command-kit.ts';
import { agbotCommands } from './commands/agbot.ts';
import { agreementCommands } from './commands/agreement.ts';
import { deploycheckCommands } from './commands/deploycheck.ts';
import { eventlogCommands } from './commands/eventlog.ts';
import { exchangeCommands } from './commands/exchange/index.ts';
import { keyCommands } from './commands/key.ts';
import { nmCommands } from './commands/nm.ts';
import { nmstatusCommands } from './commands/nmstatus.ts';
import { nodeCommands } from './commands/node.ts';
import { policyCommands } from './commands/policy.ts';
import { registerCommand } from './commands/register.ts';
import { secretsManagerCommands } from './commands/secretsmanager.ts';
import { serviceCommands } from './commands/service.ts';
import { unregisterCommand } from './commands/unregister.ts';
import { userinputCommands } from './commands/userinput.ts';
import { versionCommand } from './commands/version.ts';
import { loadEnv } from './config.ts';
import { EXIT, ExitRequest, FatalError, UsageError } from './errors.ts';
import type { Io } from './io.ts';

/** Every command of the subset, on a fresh commander program (a program keeps parse state). */
function buildProgram(base: Base): Command {
  const program = new Command('hzn')
    .description(
      'Command line interface for Horizon agent. Most of the sub-commands use the Horizon Agent API at the default location http://localhost:8510 (or HORIZON_URL) and the Exchange at HZN_EXCHANGE_URL.',
    )
    .option('-v, --verbose', 'Verbose output.')
    .option(
      '--dry-run',
      'When calling the Horizon or Exchange API, do GETs, but do not do PUTs, POSTs, or DELETEs.',
    )
    .exitOverride()
    .showSuggestionAfterError(false)
    .allowExcessArguments(true)
    .configureOutput({
      writeOut: (s) => base.io.err(s),
      writeErr: (s) => base.io.err(s),
      outputError: () => {},
    });
  program.action(() => {
    const given = program.args[0];
    if (given !== undefined) throw new UsageError(`expected command but got "${given}"`);
    program.outputHelp();
  });
  for (const add of [
    versionCommand,
    nodeCommands,
    agreementCommands,
    eventlogCommands,
    serviceCommands,
    policyCommands,
    userinputCommands,
    registerCommand,
    unregisterCommand,
    keyCommands,
    exchangeCommands,
    secretsManagerCommands,
    deploycheckCommands,
    agbotCommands,
    nmstatusCommands,
    nmCommands,
  ])
    add(program, base);
  return program;
}

/** One run of hzn: parses `argv` (without `node hzn`), runs the command, returns the exit code. */
export async function run(argv: string[], io: Io): Promise<number> {
  try {
    const base: Base = { io, env: loadEnv(io) };
    await buildProgram(base).parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    return report(io, err);
  }
}

function report(io: Io, err: unknown): number {
  if (err instanceof ExitRequest) return err.exitCode;
  if (err instanceof FatalError) {
    io.err(`Error: ${err.message}\n`);
    return err.exitCode;
  }
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.exitCode === 0) return EXIT.OK;
    io.err(`hzn: error: ${kingpinReason(err)}, try --help\n`);
    return EXIT.CLI_INPUT_ERROR;
  }
  if (err instanceof UsageError) {
    io.err(`hzn: error: ${err.message}, try --help\n`);
    return EXIT.CLI_INPUT_ERROR;
  }
  // A bug of ours: one line, never a stack trace.
  io.err(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
  return EXIT.INTERNAL_ERROR;
}

/** Commander's messages in kingpin's words (docs/hzn-behaviour.md#argument-parsing), so scripts matching them keep working. */
function kingpinReason(err: CommanderError): string {
  const text = err.message.replace(/^error: /, '');
  const quoted = /'([^']*)'/.exec(text)?.[1] ?? '';
  const longName = (flags: string) =>
    flags.split(/[ ,|]+/).find((f) => f.startsWith('--')) ?? flags.split(/[ ,|]+/)[0];
  switch (err.code) {
    case 'commander.unknownOption':
      return quoted.startsWith('--') ? `unknown long flag '${quoted}'` : `unknown short flag '${quoted}'`;
    case 'commander.missingMandatoryOptionValue':
      return `required flag ${longName(quoted)} not provided`;
    case 'commander.optionMissingArgument':
      return `expected argument for flag '${longName(quoted)}'`;
    case 'commander.missingArgument':
      return `required argument '${quoted}' not provided`;
    case 'commander.unknownCommand':
      return `expected command but got "${quoted}"`;
    default:
      return text;
  }
}
