/**
 * The repository's import graph, read with TypeScript's import scanner (no type checking). Every way a file can name another counts, `import type` included: a type import
 * is no runtime dependency, but it still couples the importer to the other floor's model.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** One import: `from` and `to` are repository paths with `/`; `to` is undefined for a package. */
export interface ImportEdge {
  from: string;
  to: string | undefined;
  specifier: string;
  line: number;
}

const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage']);

/** The source files under `root`, as repository paths (dot folders and build output skipped). */
export function listSourceFiles(root: string, dir = root): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIPPED_DIRS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...listSourceFiles(root, path));
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(toRepoPath(root, path));
  }
  return files;
}

/**
 * Every module specifier a source text names, with its 1-based line: static and dynamic imports,
 * re-exports, `import type`, `import('…')` types and `require`. TypeScript's pre-processor scans
 * tokens without building a syntax tree, several times faster than a full parse.
 */
export function readSpecifiers(text: string): { specifier: string; line: number }[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles.map((ref) => ({ specifier: ref.fileName, line: lineAt(text, ref.pos) }));
}

function lineAt(text: string, pos: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < pos; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Reads `package.json`'s subpath imports (`"#lib/*": "./lib/*.ts"`) as prefix rewrites. */
export function readSubpathImports(root: string): Map<string, string> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    imports?: Record<string, string>;
  };
  return new Map(Object.entries(pkg.imports ?? {}));
}

/**
 * The repository path a specifier names, or undefined for a package (`zod`, `node:fs`).
 * A path that does not exist is still returned as written, so a broken import stays visible.
 */
export function resolveSpecifier(
  root: string,
  from: string,
  specifier: string,
  subpaths: Map<string, string>,
): string | undefined {
  if (specifier.startsWith('#')) {
    for (const [pattern, target] of subpaths) {
      const [prefix, suffix = ''] = pattern.split('*');
      if (specifier.startsWith(prefix as string) && specifier.endsWith(suffix)) {
        const middle = specifier.slice((prefix as string).length, specifier.length - suffix.length);
        return withExtension(root, posix.normalize(target.replace('*', middle)));
      }
    }
    return specifier;
  }
  if (!specifier.startsWith('.')) return undefined;
  return withExtension(root, posix.join(posix.dirname(from), specifier));
}

function withExtension(root: string, path: string): string {
  if (SOURCE.test(path) || existsSync(join(root, path))) return path;
  for (const candidate of [`${path}.ts`, `${path}/index.ts`])
    if (existsSync(join(root, candidate))) return candidate;
  return path;
}

/** The whole graph: one edge per import of every source file under `root`. */
export function readImportGraph(root: string): ImportEdge[] {
  const subpaths = readSubpathImports(root);
  return listSourceFiles(root).flatMap((from) =>
    readSpecifiers(readFileSync(join(root, from), 'utf8')).map(({ specifier, line }) => ({
      from,
      to: resolveSpecifier(root, from, specifier, subpaths),
      specifier,
      line,
    })),
  );
}

function toRepoPath(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}

/** The repository this file is in. */
export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
