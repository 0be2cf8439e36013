/**
 * Upstream's exit codes (cli/cliutils: docs/hzn-behaviour.md#exit-codes-and-prompts) and the two ways a run fails: a usage
 * error (kingpin's `hzn: error: <reason>, try --help`, exit 1) and a fatal error (`Error: <msg>`).
 */
export const EXIT = {
  OK: 0,
  CLI_INPUT_ERROR: 1,
  JSON_PARSING_ERROR: 3,
  FILE_IO_ERROR: 4,
  HTTP_ERROR: 5,
  CLI_GENERAL_ERROR: 7,
  NOT_FOUND: 8,
  SIGNATURE_INVALID: 9,
  INTERNAL_ERROR: 99,
  /** os.Exit(424) as the shell sees it (424 mod 256). */
  ANAX_NOT_CONFIGURED_YET: 168,
} as const;

/** `Error: <message>` on stderr, then exit with `code`. */
export class FatalError extends Error {
  override name = 'FatalError';
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** `hzn: error: <reason>, try --help`, exit 1. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Ends the run with a code and no message (e.g. `{"exists": false}` already printed). */
export class ExitRequest extends Error {
  override name = 'ExitRequest';
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
  }
}

export const fatal = (exitCode: number, message: string) => new FatalError(exitCode, message);
export const usage = (reason: string) => new UsageError(reason);
