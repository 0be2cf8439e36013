import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildFunctions } from '../../../scripts/exchange-functions-build.ts';

/**
 * The e2e project's global setup: every Exchange function is built once for the run, and each
 * file's serverless-offline runs that build instead of building its own (a build takes most of a
 * server's start). The agent (`dist/agent.mjs`) is built once too, before any file starts one: a
 * file that rebuilt it could rewrite it while another file's agent (re)starts from it. Each run, and each rerun in watch mode, builds into a fresh folder, so a build
 * from before a source change is never used; the folder is removed when the run ends.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

async function freshBuild(): Promise<string> {
  const dir = join('.esbuild', `e2e-${process.pid}-${randomBytes(4).toString('hex')}`);
  await buildFunctions(dir);
  return dir;
}

const remove = (dir: string) => rmSync(resolve(root, dir), { recursive: true, force: true });

/** `npm run build:agent`: dist/agent.mjs, which the e2e files run as the shipped agent. */
function buildAgent(): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn('npm', ['run', '--silent', 'build:agent'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk) => {
      errors += chunk;
    });
    child.once('error', fail);
    child.once('exit', (code) =>
      code === 0 ? done() : fail(new Error(`npm run build:agent failed: ${errors}`)),
    );
  });
}

export async function setup(project: TestProject): Promise<() => void> {
  let [dir] = await Promise.all([freshBuild(), buildAgent()]);
  project.provide('exchangeBuildDir', dir);
  project.onTestsRerun(async () => {
    const previous = dir;
    [dir] = await Promise.all([freshBuild(), buildAgent()]);
    project.provide('exchangeBuildDir', dir);
    remove(previous);
  });
  return () => remove(dir);
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's build of every function, relative to the project root (startOffline's prebuiltDir). */
    exchangeBuildDir: string;
  }
}
