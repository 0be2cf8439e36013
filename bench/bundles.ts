import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build } from 'esbuild';
import { parse } from 'yaml';
import { median } from './stats.ts';

/**
 * Every function built as serverless.yml's `custom.esbuild` builds it (serverless-esbuild drops
 * its own keys and turns `exclude` into esbuild's `external`), then: the minified size of each
 * .mjs, and how long a fresh `node` takes to import it.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Under node_modules so the bundles resolve @aws-sdk/* as on Lambda (provided, not bundled). */
const outRoot = join(root, 'node_modules', '.cache', 'exchange-bench');

/** serverless-esbuild's own options, which it removes before calling esbuild (its dist/bundle.js). */
const PLUGIN_KEYS = [
  'concurrency',
  'zipConcurrency',
  'exclude',
  'nativeZip',
  'packager',
  'packagePath',
  'watch',
  'keepOutputDirectory',
  'packagerOptions',
  'installExtraArgs',
  'outputFileExtension',
  'outputBuildFolder',
  'outputWorkFolder',
  'nodeExternals',
  'skipBuild',
  'skipRebuild',
  'skipBuildExcludeFns',
  'stripEntryResolveExtensions',
  'disposeContext',
  'config',
];

export interface FunctionBundle {
  name: string;
  handler: string;
  file: string;
  bytes: number;
}

interface ServerlessFunction {
  handler: string;
}

function readYaml(path: string): Record<string, unknown> {
  return parse(readFileSync(path, 'utf8'), { logLevel: 'error' }) ?? {};
}

/** name → handler, resolving the `${file(...)}` route files serverless.yml lists. */
export function serverlessFunctions(): Map<string, string> {
  const config = readYaml(join(root, 'serverless.yml'));
  const functions = new Map<string, string>();
  for (const entry of (config.functions as string[]) ?? []) {
    const file = /\$\{file\((.+)\)\}/.exec(entry)?.[1];
    if (!file) continue;
    for (const [name, fn] of Object.entries(
      readYaml(join(root, file)) as Record<string, ServerlessFunction>,
    )) {
      functions.set(name, fn.handler);
    }
  }
  return functions;
}

function esbuildOptions(): BuildOptions {
  const config = readYaml(join(root, 'serverless.yml'));
  const custom = (config.custom as { esbuild: Record<string, unknown> }).esbuild;
  const options = Object.fromEntries(Object.entries(custom).filter(([key]) => !PLUGIN_KEYS.includes(key)));
  return {
    ...options,
    external: [...((custom.external as string[]) ?? []), ...((custom.exclude as string[]) ?? [])],
    outExtension: { '.js': String(custom.outputFileExtension ?? '.js') },
    logLevel: 'error',
  } as BuildOptions;
}

export async function buildBundles(): Promise<FunctionBundle[]> {
  rmSync(outRoot, { recursive: true, force: true });
  const options = esbuildOptions();
  const bundles: FunctionBundle[] = [];
  for (const [name, handler] of serverlessFunctions()) {
    const source = `${handler.slice(0, handler.lastIndexOf('.'))}.ts`;
    const outdir = join(outRoot, dirname(source));
    await build({ ...options, entryPoints: [join(root, source)], outdir, absWorkingDir: root });
    const ext = (options.outExtension as Record<string, string>)['.js'] ?? '.js';
    const file = join(outdir, source.split('/').pop()?.replace(/\.ts$/, ext) ?? '');
    bundles.push({ name, handler, file, bytes: statSync(file).size });
  }
  return bundles;
}

/** NODE_OPTIONS the functions run with (serverless.yml provider.environment), e.g. --enable-source-maps. */
export function deployedNodeOptions(): string {
  const provider = readYaml(join(root, 'serverless.yml')).provider as {
    environment?: Record<string, string>;
  };
  return provider.environment?.NODE_OPTIONS ?? '';
}

export interface ColdImport {
  /** The whole cold import: the SDK (external, provided by the Lambda runtime) and the bundle. */
  totalMs: number;
  /** The part spent loading @aws-sdk/client-dynamodb and lib-dynamodb. */
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
    "await import('@aws-sdk/client-dynamodb'); await import('@aws-sdk/lib-dynamodb');",
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

export const cleanBundles = () => rmSync(outRoot, { recursive: true, force: true });
