import * as z from 'zod';

/** zod → JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) with z.toJSONSchema. */
export type JsonSchema = { [keyword: string]: unknown };

export const componentRef = (name: string): string => `#/components/schemas/${name}`;

const SHARED = '__shared';
const sharedRef = new RegExp(`^${componentRef(SHARED)}#/\\$defs/(.+)$`);

/** z.json(): any JSON value, a union that refers to itself. */
function isJsonValue(schema: JsonSchema, key: string): boolean {
  const branches = schema.anyOf;
  if (!Array.isArray(branches)) return false;
  const self = `${componentRef(SHARED)}#/$defs/${key}`;
  return JSON.stringify(branches).includes(self) && branches.some((b) => (b as JsonSchema).type === 'null');
}

/** Rewrites every `$ref` inside `value` with `rename`. */
function mapRefs(value: unknown, rename: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => mapRefs(item, rename));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === '$ref' && typeof item === 'string' ? rename(item) : mapRefs(item, rename),
    ]),
  );
}

/**
 * Every schema of `registry` (each under its `id`) as components. zod puts parts that several
 * schemas share, or that recurse (z.json()), under a `__shared` entry with `$defs`; those become
 * components of their own so that every `$ref` is a plain `#/components/schemas/<name>`.
 */
export function registryToComponents(
  registry: z.core.$ZodRegistry<{ id: string }>,
  io: 'input' | 'output',
): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    uri: componentRef,
  }) as { schemas: Record<string, JsonSchema> };
  const shared = (schemas[SHARED]?.$defs ?? {}) as Record<string, JsonSchema>;
  const sharedName = (key: string) =>
    isJsonValue(shared[key] ?? {}, key) ? 'JsonValue' : `${io === 'input' ? 'Request' : 'Response'}_${key}`;
  const rename = (ref: string) => {
    const match = sharedRef.exec(ref);
    return match?.[1] ? componentRef(sharedName(match[1])) : ref;
  };
  const components: Record<string, JsonSchema> = {};
  for (const [key, schema] of Object.entries(shared)) components[sharedName(key)] = schema;
  for (const [name, schema] of Object.entries(schemas)) {
    if (name === SHARED) continue;
    // $id would change how the refs inside resolve; $schema is the document's dialect anyway.
    const { $schema: _schema, $id: _id, ...rest } = schema;
    components[name] = rest;
  }
  return mapRefs(components, rename) as Record<string, JsonSchema>;
}

/** A path or query schema (a flat object of strings) as its JSON Schema, everything inline. */
export function objectSchema(schema: z.ZodType): {
  properties: Record<string, JsonSchema>;
  required: string[];
} {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    target: 'draft-2020-12',
    unrepresentable: 'any',
    reused: 'inline',
    metadata: z.registry(),
  }) as JsonSchema;
  if (json.type !== 'object' || json.$defs) {
    throw new Error('path and query schemas must be flat objects');
  }
  return {
    properties: (json.properties ?? {}) as Record<string, JsonSchema>,
    required: (json.required ?? []) as string[],
  };
}
