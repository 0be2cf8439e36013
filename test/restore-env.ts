/**
 * Runs before every test file (vitest.config.ts). A worker process runs file after file of its
 * project: vitest loads the project's modules afresh for each file, but the process itself, and so
 * `process.env` and the working directory, stay. A file that sets a variable at its top (a server's
 * address, a key file) would hand it to the next file and to every program that one launches. So
 * the first file of a process records both, and each later file starts from that record.
 */
const KEY = Symbol.for('open-exchange.test.process-start');
interface ProcessStart {
  env: Record<string, string | undefined>;
  cwd: string;
}
const holder = globalThis as { [KEY]?: ProcessStart };

const start = holder[KEY];
if (start === undefined) {
  holder[KEY] = { env: { ...process.env }, cwd: process.cwd() };
} else {
  for (const name of Object.keys(process.env)) if (!(name in start.env)) delete process.env[name];
  Object.assign(process.env, start.env);
  if (process.cwd() !== start.cwd) process.chdir(start.cwd);
}
