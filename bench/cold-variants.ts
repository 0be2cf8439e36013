import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { median } from './stats.ts';

/**
 * The nodes family's bundle built three ways, each cold-imported by fresh `node` processes (the
 * DynamoDB client included in every time): AWS SDK external (the Lambda runtime's), everything bundled (as deployed) and
 * minified, and bundled with only the DynamoDB client parts the code imports (tree-shaken).
 * `npx tsx bench/cold-variants.ts` prints size and median cold import of each.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outRoot = join(root, 'node_modules', '.cache', 'exchange-bench-variants');
const entry = join(root, 'functions', 'nodes', 'lambda.ts');
const banner = {
  js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
};

const variants = {
  'SDK external (from the Lambda runtime)': ['@aws-sdk/*'],
  'SDK bundled, minified (as deployed)': [],
  'only @aws-sdk/client-dynamodb + lib-dynamodb bundled': [
    '@aws-sdk/credential-provider-*',
    '@aws-sdk/client-sso*',
  ],
} as const;

async function buildVariant(name: string, external: readonly string[]): Promise<string> {
  const outfile = join(outRoot, `${name.replace(/\W+/g, '-')}.mjs`);
  mkdirSync(outRoot, { recursive: true });
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    minify: true,
    treeShaking: true,
    target: 'node22',
    platform: 'node',
    format: 'esm',
    banner,
    external: [...external],
    absWorkingDir: root,
    logLevel: 'error',
  });
  return outfile;
}

/** Median of `runs` fresh processes; SDK external loads the client packages first, as Lambda would. */
function coldImportMs(file: string, sdkExternal: boolean, runs = 9): number {
  const preload = sdkExternal
    ? "await import('@aws-sdk/client-dynamodb'); await import('@aws-sdk/lib-dynamodb');"
    : '';
  const script = `const t0 = performance.now(); ${preload} await import(${JSON.stringify(file)}); console.log(performance.now() - t0);`;
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
    });
    if (child.status !== 0) throw new Error(`importing ${file} failed: ${child.stderr}`);
    samples.push(Number(child.stdout.trim()));
  }
  return median(samples);
}

const rows: { name: string; kb: number; ms: number }[] = [];
for (const [name, external] of Object.entries(variants)) {
  const file = await buildVariant(name, external);
  rows.push({
    name,
    kb: statSync(file).size / 1024,
    ms: coldImportMs(file, external.includes('@aws-sdk/*' as never)),
  });
}
rmSync(outRoot, { recursive: true, force: true });
for (const r of rows)
  console.log(
    `| ${r.name} | ${r.kb.toFixed(1)} KB | ${r.ms.toFixed(1)} ms | ${r.ms <= 100 ? 'yes' : '**no**'} |`,
  );
