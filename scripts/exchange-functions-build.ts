import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build } from 'esbuild';
import { parse } from 'yaml';
import { stackFunctions } from '#functions/families';

/**
 * The Exchange's functions built as serverless.yml's `custom.esbuild` builds them through
 * serverless-esbuild: the plugin drops its own keys and turns `exclude` into esbuild's `external`.
 * The benchmark builds single bundles with these options; the end-to-end tests build every function
 * once per run and start each serverless-offline on that build.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

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

/** Written last into a work folder whose functions are all built (functions/serverless-functions.cjs checks it). */
const BUILT_MARKER = 'built.json';

export function readServerlessYaml(): Record<string, unknown> {
  return parse(readFileSync(join(root, 'serverless.yml'), 'utf8'), { logLevel: 'error' }) ?? {};
}

/** name → handler of every function serverless.yml deploys (generated from the route lists). */
export function serverlessFunctions(): Map<string, string> {
  return new Map(Object.entries(stackFunctions()).map(([name, fn]) => [name, fn.handler]));
}

/** The handler's source file, relative to the project root: `functions/admin/lambda.handler` → `.ts`. */
export const handlerSource = (handler: string): string => `${handler.slice(0, handler.lastIndexOf('.'))}.ts`;

const customEsbuild = (): Record<string, unknown> =>
  (readServerlessYaml().custom as { esbuild: Record<string, unknown> }).esbuild;

export function esbuildOptions(): BuildOptions {
  const custom = customEsbuild();
  const options = Object.fromEntries(Object.entries(custom).filter(([key]) => !PLUGIN_KEYS.includes(key)));
  return {
    ...options,
    external: [...((custom.external as string[]) ?? []), ...((custom.exclude as string[]) ?? [])],
    outExtension: { '.js': String(custom.outputFileExtension ?? '.js') },
    logLevel: 'error',
  } as BuildOptions;
}

/**
 * Every function into `workDir` as serverless-esbuild lays it out (`<workDir>/.build/functions/
 * <family>/lambda.mjs`), so serverless-offline can run them from there. One esbuild call for all
 * of them: each module is parsed once instead of once per function.
 */
export async function buildFunctions(workDir: string): Promise<void> {
  const sources = [...new Set([...serverlessFunctions().values()].map(handlerSource))];
  // serverless-esbuild's folder for the bundles inside its work folder (`.build` unless set).
  const buildFolder = String(customEsbuild().outputBuildFolder ?? '.build');
  const workPath = resolve(root, workDir);
  await build({
    ...esbuildOptions(),
    entryPoints: sources.map((source) => join(root, source)),
    outbase: root,
    outdir: join(workPath, buildFolder),
    absWorkingDir: root,
  });
  writeFileSync(join(workPath, BUILT_MARKER), `${JSON.stringify({ sources }, null, 2)}\n`);
}
