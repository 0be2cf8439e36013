import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A serverless config for the floor function: the project's own serverless.yml (same provider,
 * esbuild and serverless-offline options), with its functions replaced by the one floor function
 * and without the AWS resources. Written next to serverless.yml (serverless v3 reads `--config`
 * from the service directory only) under a git-ignored name; `remove()` (or this process's exit) deletes it.
 */
// A serverless variable, not a template: its `${` is literal.
const FUNCTIONS_LINE = ['functions: $', '{file(./functions/serverless-functions.cjs):functions}'].join('');
const FLOOR_FUNCTIONS = [
  'functions:',
  '  floor:',
  '    handler: bench/floor/get-item-function.handler',
  '    events:',
  "      - httpApi: { method: ANY, path: '/{proxy+}' }",
].join('\n');

export function writeFloorConfig(root: string): { file: string; remove(): void } {
  const source = readFileSync(join(root, 'serverless.yml'), 'utf8');
  const resourcesAt = source.indexOf('\nresources:');
  if (!source.includes(FUNCTIONS_LINE) || resourcesAt < 0) {
    throw new Error('serverless.yml changed shape: update bench/floor/serverless-config.ts');
  }
  const file = `serverless.bench-floor-${process.pid}.yml`;
  const path = join(root, file);
  writeFileSync(path, `${source.slice(0, resourcesAt).replace(FUNCTIONS_LINE, FLOOR_FUNCTIONS)}\n`);
  // Also gone when the benchmark is interrupted before it stops the floor servers.
  const remove = () => {
    process.removeListener('exit', remove);
    rmSync(path, { force: true });
  };
  process.once('exit', remove);
  return { file, remove };
}
