import { spawnSync } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build } from 'esbuild';
import {
  esbuildOptions,
  handlerSource,
  readServerlessYaml,
  serverlessFunctions,
} from '../scripts/exchange-functions-build.ts';
import { median } from './stats.ts';

/**
 * Every function built as serverless.yml's `custom.esbuild` builds it (scripts/exchange-functions-build.ts),
 * one at a time, then: the minified size of each .mjs, and how long a fresh `node` takes to import it.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Under node_modules so the bundles resolve what they leave external as on Lambda. */
const outRoot = join(root, 'node_modules', '.cache', 'exchange-bench');

export interface FunctionBundle {
  name: string;
  handler: string;
  file: string;
  bytes: number;
}

async function buildOne(options: BuildOptions, name: string, handler: string): Promise<FunctionBundle> {
  const source = handlerSource(handler);
  const outdir = join(outRoot, name, dirname(source));
  await build({ ...options, entryPoints: [join(root, source)], outdir, absWorkingDir: root });
  const ext = (options.outExtension as Record<string, string>)['.js'] ?? '.js';
  const file = join(outdir, source.split('/').pop()?.replace(/\.ts$/, ext) ?? '');
  return { name, handler, file, bytes: statSync(file).size };
}

/** Every deployed function: one per resource family, and the catch-all. */
export async function buildBundles(): Promise<FunctionBundle[]> {
  rmSync(outRoot, { recursive: true, force: true });
  const options = esbuildOptions();
  const bundles: FunctionBundle[] = [];
  for (const [name, handler] of serverlessFunctions()) bundles.push(await buildOne(options, name, handler));
  return bundles;
}

/**
 * One endpoint's handler bundled alone, as every endpoint was deployed before the families (one
 * Lambda per endpoint): what a family's bundle is compared with.
 */
export function buildEndpointBundle(operationId: string, handlerModule: string): Promise<FunctionBundle> {
  return buildOne(esbuildOptions(), `${operationId} alone`, `functions/${handlerModule}.handler`);
}

/** NODE_OPTIONS the functions run with (serverless.yml provider.environment), e.g. --enable-source-maps. */
export function deployedNodeOptions(): string {
  const provider = readServerlessYaml().provider as {
    environment?: Record<string, string>;
  };
  return provider.environment?.NODE_OPTIONS ?? '';
}

/** Whether serverless.yml leaves the AWS SDK out of the bundles (to be loaded from the Lambda runtime). */
export const sdkExternal = (): boolean =>
  ((esbuildOptions().external as string[] | undefined) ?? []).some((name) => name.startsWith('@aws-sdk'));

export interface ColdImport {
  /** The whole cold import: the SDK when it is external (provided by the Lambda runtime), and the bundle. */
  totalMs: number;
  /** The part spent loading an external @aws-sdk/client-dynamodb and lib-dynamodb (0 when bundled). */
  sdkMs: number;
  /** The bundle itself, once the SDK is loaded: the part this project's code decides. */
  bundleMs: number;
}

/**
 * A fresh node process imports the SDK packages the bundle leaves external, then the bundle,
 * timing each inside the process; the median of `runs` processes.
 */
export function coldImport(file: string, nodeOptions: string, runs = 5): ColdImport {
  const script = [
    'const t0 = performance.now();',
    sdkExternal() ? "await import('@aws-sdk/client-dynamodb'); await import('@aws-sdk/lib-dynamodb');" : '',
    'const t1 = performance.now();',
    `await import(${JSON.stringify(file)});`,
    'console.log(JSON.stringify({ sdk: t1 - t0, bundle: performance.now() - t1 }));',
  ].join('\n');
  const samples: { sdk: number; bundle: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: nodeOptions },
    });
    if (child.status !== 0) throw new Error(`importing ${relative(root, file)} failed: ${child.stderr}`);
    samples.push(JSON.parse(child.stdout.trim()));
  }
  return {
    totalMs: median(samples.map((s) => s.sdk + s.bundle)),
    sdkMs: median(samples.map((s) => s.sdk)),
    bundleMs: median(samples.map((s) => s.bundle)),
  };
}

/** Cold imports of several bundles taken in turn (a, b, a, b, …), so load on the machine hits them alike; medians. */
export function interleavedColdImports(files: string[], nodeOptions: string, runs = 15): ColdImport[] {
  const samples: ColdImport[][] = files.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [index, file] of files.entries()) samples[index]?.push(coldImport(file, nodeOptions, 1));
  }
  return samples.map((taken) => ({
    totalMs: median(taken.map((s) => s.totalMs)),
    sdkMs: median(taken.map((s) => s.sdkMs)),
    bundleMs: median(taken.map((s) => s.bundleMs)),
  }));
}

export const cleanBundles = () => rmSync(outRoot, { recursive: true, force: true });
