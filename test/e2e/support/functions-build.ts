import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildFunctions } from '../../../scripts/exchange-functions-build.ts';
import { type DeviceKits, startDeviceKits } from './device-kits.ts';

/**
 * The e2e project's global setup: every Exchange function is built once for the run, and each
 * file's serverless-offline runs that build instead of building its own (a build takes most of a
 * server's start). The agent (`dist/agent.mjs`) is built once too, before any file starts one: a
 * file that rebuilt it could rewrite it while another file's agent (re)starts from it. Each run, and each rerun in watch mode, builds into a fresh folder, so a build
 * from before a source change is never used; the folder is removed when the run ends. The device
 * kits of the files that install agents are built meanwhile, in the background (device-kits.ts).
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** A fresh folder for the run's build of the functions, also the run's token (buildKit's stamp). */
const freshDir = () => join('.esbuild', `e2e-${process.pid}-${randomBytes(4).toString('hex')}`);

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

/** The run's builds: the functions and the agent, awaited; the device kits started beside them. */
async function buildRun(project: TestProject, files: string[]): Promise<{ dir: string; kits: DeviceKits }> {
  const dir = freshDir();
  const kits = startDeviceKits(project, dir, files);
  try {
    await Promise.all([buildFunctions(dir), buildAgent()]);
  } catch (error) {
    // Nothing of a failed setup outlives it: its kit builds end first.
    await kits.settled;
    kits.remove();
    throw error;
  }
  project.provide('exchangeBuildDir', dir);
  return { dir, kits };
}

/** The run's builds once the kits' builds have ended (none is stopped halfway: each takes seconds). */
async function removeRun(run: { dir: string; kits: DeviceKits }): Promise<void> {
  await run.kits.settled;
  run.kits.remove();
  remove(run.dir);
}

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The run's test files, known before the global setup (vitest's state, an experimental API).
  let run = await buildRun(project, project.vitest.state.getPaths());
  project.onTestsRerun(async (specifications) => {
    const previous = run;
    run = await buildRun(
      project,
      specifications.map((specification) => specification.moduleId),
    );
    await removeRun(previous);
  });
  return () => removeRun(run);
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's build of every function, relative to the project root (startOffline's prebuiltDir). */
    exchangeBuildDir: string;
  }
}
