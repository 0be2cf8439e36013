import { readFileSync } from 'node:fs';
import { stripComments } from './config.ts';
import type { Ctx } from './context.ts';
import { EXIT, fatal } from './errors.ts';

/**
 * An input file as upstream reads it (docs/hzn-behaviour.md#input-files): a path or `-` for stdin, `/* *\/`
 * comments removed, `$VAR`/`${VAR}` replaced from the environment (an undefined one becomes ""
 * with a warning on stdout), then JSON. Unreadable → exit 4; not JSON → exit 3 (or `jsonExit`).
 */
export async function readInputText(ctx: Ctx, path: string): Promise<string> {
  try {
    return path === '-' ? await ctx.io.readStdin() : readFileSync(path, 'utf8');
  } catch (err) {
    throw fatal(EXIT.FILE_IO_ERROR, `reading ${path} failed: ${(err as Error).message}`);
  }
}

export async function readJsonFile<T = unknown>(
  ctx: Ctx,
  path: string,
  jsonExit: number = EXIT.JSON_PARSING_ERROR,
): Promise<T> {
  const text = substituteEnv(ctx, stripComments(await readInputText(ctx, path)));
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw fatal(jsonExit, `failed to unmarshal JSON input file ${path}: ${(err as Error).message}`);
  }
}

/** Go's os.Expand over the environment, unless HZN_DONT_SUBST_ENV_VARS=1. */
function substituteEnv(ctx: Ctx, text: string): string {
  if (ctx.env.HZN_DONT_SUBST_ENV_VARS === '1') return text;
  const warned = new Set<string>();
  return text.replace(/\$(?:\{([^}]*)\}|([A-Za-z0-9_]+)|([*#$@!?\-0-9]))/g, (_m, braced, plain, special) => {
    const name: string = braced ?? plain ?? special;
    const value = ctx.env[name];
    if (value !== undefined) return value;
    if (!warned.has(name)) {
      warned.add(name);
      ctx.io.out(
        `Warning: environment variable '${name}' is referenced in input file, but not defined in the environment.\n`,
      );
    }
    return '';
  });
}

/** A value that must be a JSON object (not an array, not null). */
export function requireObject(value: unknown, path: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw fatal(
      EXIT.JSON_PARSING_ERROR,
      `failed to unmarshal JSON input file ${path}: the file must hold a JSON object`,
    );
  return value as Record<string, unknown>;
}
