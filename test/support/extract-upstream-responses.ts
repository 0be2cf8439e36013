import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiDocument } from '#functions/openapi/shared/document';

/**
 * Writes openapi-responses.json: for every operation of OUR document that upstream's OpenAPI
 * document (exchange-openapi-2.154.0.json) also has, upstream's first documented 2xx JSON schema,
 * with every component schema those refer to. Run it when routes are added, with the path of
 * upstream's document (published with open-horizon/exchange-api's releases):
 *   npx tsx test/support/extract-upstream-responses.ts <exchange-openapi-2.154.0.json>
 */
type Json = { [key: string]: unknown };

const source = process.argv[2];
if (!source) {
  console.error(
    'usage: npx tsx test/support/extract-upstream-responses.ts <path of upstream OpenAPI document>',
  );
  process.exit(2);
}
const upstream = JSON.parse(readFileSync(source, 'utf8')) as {
  paths: Record<string, Record<string, { responses?: Record<string, Json> }>>;
  components: { schemas: Record<string, Json> };
};

const responses: Record<string, { status: number; schema: Json }> = {};
for (const [path, item] of Object.entries(openApiDocument().paths)) {
  for (const method of Object.keys(item)) {
    const operation = upstream.paths[path]?.[method];
    const documented = Object.entries(operation?.responses ?? {}).find(([status]) => /^2\d\d$/.test(status));
    const schema = (documented?.[1]?.content as Json | undefined)?.['application/json'] as Json | undefined;
    if (!documented || !schema?.schema) continue;
    responses[`${method.toUpperCase()} ${path}`] = {
      status: Number(documented[0]),
      schema: schema.schema as Json,
    };
  }
}

/** Component names referred to from `value`, transitively. */
function referred(value: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) referred(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const name = key === '$ref' && typeof item === 'string' ? item.split('/').pop() : undefined;
      if (name && !found.has(name)) {
        found.add(name);
        referred(upstream.components.schemas[name], found);
      } else referred(item, found);
    }
  }
  return found;
}

const sorted = <T>(record: Record<string, T>) =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));
const names = [...referred(responses, new Set())].sort();
const schemas = Object.fromEntries(names.map((name) => [name, upstream.components.schemas[name]]));
const file = join(import.meta.dirname, 'openapi-responses.json');
writeFileSync(file, `${JSON.stringify({ responses: sorted(responses), schemas }, null, 2)}\n`);
// As Biome lays it out (npm test lints JSON too).
spawnSync('npx', ['biome', 'format', '--write', file], { stdio: 'ignore' });
console.log(`${Object.keys(responses).length} operations, ${names.length} schemas → ${file}`);
