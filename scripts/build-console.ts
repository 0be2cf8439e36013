import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/**
 * `npm run build:console`: the web console (console/src, Preact + TSX) bundled by esbuild into
 * `console/dist/assets/app-<hash>.js` and `.css`, and `console/dist/index.html` naming them. The
 * stack serves that folder (functions/console/shared/assets.ts); `npm start` and `serverless
 * package` (stack/console-plugin.cjs) build it first. Written beside and swapped in, so a reader
 * never sees half a build.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface ConsoleBuild {
  dir: string;
  files: { name: string; bytes: number; gzip: number }[];
  /** Every asset's gzip size added up (what the budget test holds to 60 KB). */
  gzipTotal: number;
}

export async function buildConsole(dir = join(root, 'console/dist')): Promise<ConsoleBuild> {
  const staging = `${dir}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { app: 'console/src/main.tsx' },
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: 'console/tsconfig.json',
    entryNames: '[name]-[hash]',
    outdir: join(staging, 'assets'),
    legalComments: 'none',
    metafile: true,
    logLevel: 'error',
  });
  const outputs = Object.keys(result.metafile.outputs).map((file) => basename(file));
  const script = outputs.find((name) => name.endsWith('.js'));
  const style = outputs.find((name) => name.endsWith('.css'));
  if (!script || !style) throw new Error(`the console build wrote ${outputs.join(', ')}`);
  const page = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Open Exchange console</title>',
    // No favicon request (the catch-all route would answer it 401).
    '<link rel="icon" href="data:,">',
    `<link rel="stylesheet" href="assets/${style}">`,
    `<script type="module" src="assets/${script}"></script>`,
    '</head>',
    '<body><div id="app"></div><noscript>The console needs JavaScript.</noscript></body>',
    '</html>',
    '',
  ].join('\n');
  writeFileSync(join(staging, 'index.html'), page);
  const files = Object.entries(result.metafile.outputs).map(([file, output]) => {
    return {
      name: basename(file),
      bytes: output.bytes,
      gzip: gzipSync(readFileSync(join(root, file)), { level: 9 }).length,
    };
  });
  files.push({ name: 'index.html', bytes: page.length, gzip: gzipSync(page, { level: 9 }).length });
  mkdirSync(dirname(dir), { recursive: true });
  const old = `${dir}.old-${process.pid}`;
  try {
    renameSync(dir, old);
  } catch {}
  renameSync(staging, dir);
  rmSync(old, { recursive: true, force: true });
  return { dir, files, gzipTotal: files.reduce((sum, file) => sum + file.gzip, 0) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = await buildConsole();
  for (const file of built.files) console.log(`${file.name}: ${file.bytes} bytes, ${file.gzip} gzip`);
  console.log(`console/dist: ${(built.gzipTotal / 1024).toFixed(1)} KB gzip in all`);
}
