import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildFunctions } from '../../../scripts/exchange-functions-build.ts';

/**
 * The e2e project's global setup: every Exchange function is built once for the run, and each
 * file's serverless-offline runs that build instead of building its own (a build takes most of a
 * server's start). Each run, and each rerun in watch mode, builds into a fresh folder, so a build
 * from before a source change is never used; the folder is removed when the run ends.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

async function freshBuild(): Promise<string> {
  const dir = join('.esbuild', `e2e-${process.pid}-${randomBytes(4).toString('hex')}`);
  await buildFunctions(dir);
  return dir;
}

const remove = (dir: string) => rmSync(resolve(root, dir), { recursive: true, force: true });

export async function setup(project: TestProject): Promise<() => void> {
  let dir = await freshBuild();
  project.provide('exchangeBuildDir', dir);
  project.onTestsRerun(async () => {
    const previous = dir;
    dir = await freshBuild();
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
