/**
 * lib/protocol is imported by the Exchange's functions, the agent and the agbot, so it must not
 * pull in a server (DynamoDB, Fastify, middy, the Exchange's lib/http) or anything with I/O.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const dir = new URL('../../../lib/protocol/', import.meta.url);
const ALLOWED = [
  /^\.\/[a-z0-9-]+\.ts$/, // its own files
  /^node:(crypto|util)$/,
  /^zod$/,
  // The one constraint parser (shared with the agent and the Exchange's catalog routes).
  /^#lib\/policy\/constraints$/,
  // The one version-range implementation (no I/O).
  /^#lib\/catalog\/version-range$/,
];
// `import type` is erased at build time, so it is no runtime dependency and is not checked here.

describe('lib/protocol has no server dependencies', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));

  it.each(files)('%s imports only node:crypto, node:util, zod and its own files', (file) => {
    const source = readFileSync(new URL(file, dir), 'utf8');
    const imports = [...source.matchAll(/^\s*(?:import|export)(?!\s+type\b)[^'"]*from\s+'([^']+)'/gm)].map(
      (m) => m[1] as string,
    );
    expect(imports.filter((spec) => !ALLOWED.some((allowed) => allowed.test(spec)))).toEqual([]);
  });
});
