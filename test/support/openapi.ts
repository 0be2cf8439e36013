import document from './openapi-responses.json' with { type: 'json' };

/**
 * Checks 2xx bodies against upstream's OpenAPI response schemas (a subset of
 * exchange-openapi-2.154.0.json kept beside this file). Only the JSON Schema the document uses is
 * supported: $ref, type, properties, required, additionalProperties, items. Two readings of
 * upstream's generated document:
 * - a bare `{"type":"object"}` is how it writes Scala `Any` (property values, user inputs), so it
 *   accepts any JSON value;
 * - `null` is accepted for optional properties (Scala `Option` serialises as null; OpenAPI 3.0's
 *   `nullable` is never written), never for required ones.
 */
interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema | boolean;
  items?: Schema;
}

const schemas = document.schemas as Record<string, Schema>;
const responses = document.responses as Record<string, { status: number; schema: Schema }>;

/** The schema of `METHOD /template` for its documented 2xx status, if upstream documents a JSON body. */
export function responseSchema(operation: string): { status: number; schema: Schema } | undefined {
  return responses[operation];
}

const typeOf = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
};

const isAny = (schema: Schema) =>
  schema.type === 'object' && !schema.properties && schema.additionalProperties === undefined;

/** Every violation of `schema` by `value`, as `<json path>: <problem>`; empty when it validates. */
export function validate(schema: Schema, value: unknown, at = '$'): string[] {
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = schemas[name];
    if (!target) return [`${at}: unknown schema ${schema.$ref}`];
    return validate(target, value, at);
  }
  if (isAny(schema)) return [];
  const actual = typeOf(value);
  if (schema.type) {
    const fits = schema.type === actual || (schema.type === 'number' && actual === 'integer');
    if (!fits) return [`${at}: expected ${schema.type}, got ${actual}`];
  }
  const errors: string[] = [];
  if (actual === 'array' && schema.items) {
    (value as unknown[]).forEach((item, i) => {
      errors.push(...validate(schema.items as Schema, item, `${at}[${i}]`));
    });
  }
  if (actual === 'object') {
    const record = value as Record<string, unknown>;
    for (const name of schema.required ?? []) {
      if (!(name in record)) errors.push(`${at}.${name}: required but missing`);
      else if (record[name] === null) errors.push(`${at}.${name}: required but null`);
    }
    for (const [name, item] of Object.entries(record)) {
      const declared = schema.properties?.[name];
      if (declared) {
        if (item !== null) errors.push(...validate(declared, item, `${at}.${name}`));
      } else if (typeof schema.additionalProperties === 'object') {
        errors.push(...validate(schema.additionalProperties, item, `${at}.${name}`));
      }
    }
  }
  return errors;
}

/** Violations of the documented 2xx schema of `operation` (empty when none is documented or it fits). */
export function checkResponse(operation: string, status: number, body: unknown): string[] {
  const documented = responseSchema(operation);
  if (!documented || status !== documented.status) return [];
  return validate(documented.schema, body);
}
