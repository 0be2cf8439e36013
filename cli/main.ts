#!/usr/bin/env node
import { processIo } from './io.ts';
import { run } from './program.ts';

/** The `hzn` command: exit codes as upstream's (cli/errors.ts). */
// process.exit: an open stdin reader or kept-alive sockets must not hold the process after the command.
process.exit(await run(process.argv.slice(2), processIo()));
