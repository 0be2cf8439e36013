/**
 * A strict JSON Schema (draft 2020-12) checker for OUR OpenAPI document's schemas, which
 * z.toJSONSchema writes. It knows the keywords that generator emits and refuses any other
 * (an unknown keyword is reported, never silently skipped), so a check cannot pass by ignorance.
 * `$ref`s point into `components.schemas`.
 */
export type JsonSchema = { [keyword: string]: unknown };

export const ANNOTATIONS = new Set([
  'description',
  'default',
  'format',
  'title',
  'examples',
  'deprecated',
  '$schema',
]);
export const CHECKED = new Set([
  '$ref',
  'type',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'allOf',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
]);

const typeOf = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
};

function fitsType(type: string, value: unknown): boolean {
  const actual = typeOf(value);
  if (type === 'integer') return actual === 'number' && Number.isInteger(value);
  return type === actual;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export class SchemaChecker {
  constructor(private readonly components: Record<string, JsonSchema>) {}

  /** Every violation as `<json path>: <problem>`; empty when `value` fits. */
  check(schema: JsonSchema | boolean, value: unknown, at = '$'): string[] {
    if (schema === true) return [];
    if (schema === false) return [`${at}: not allowed`];
    const unknown = Object.keys(schema).filter((k) => !CHECKED.has(k) && !ANNOTATIONS.has(k));
    if (unknown.length > 0)
      return [`${at}: schema keyword(s) this checker does not know: ${unknown.join(', ')}`];
    const errors: string[] = [];
    if (typeof schema.$ref === 'string') errors.push(...this.ref(schema.$ref, value, at));
    errors.push(...this.scalar(schema, value, at));
    errors.push(...this.combinations(schema, value, at));
    if (Array.isArray(value)) errors.push(...this.array(schema, value, at));
    if (typeOf(value) === 'object') errors.push(...this.object(schema, value as Record<string, unknown>, at));
    return errors;
  }

  private ref(ref: string, value: unknown, at: string): string[] {
    const name = /^#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1];
    const target = name ? this.components[name] : undefined;
    if (!target) return [`${at}: unresolvable $ref ${ref}`];
    return this.check(target, value, at);
  }

  private scalar(s: JsonSchema, value: unknown, at: string): string[] {
    const errors: string[] = [];
    if (s.type !== undefined) {
      const types = (Array.isArray(s.type) ? s.type : [s.type]) as string[];
      if (!types.some((t) => fitsType(t, value)))
        return [`${at}: expected ${types.join(' or ')}, got ${typeOf(value)}`];
    }
    if (Array.isArray(s.enum) && !s.enum.some((v) => sameJson(v, value))) {
      errors.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(s.enum)}`);
    }
    if ('const' in s && !sameJson(s.const, value)) errors.push(`${at}: expected ${JSON.stringify(s.const)}`);
    if (typeof value === 'number') {
      if (typeof s.minimum === 'number' && value < s.minimum) errors.push(`${at}: below ${s.minimum}`);
      if (typeof s.maximum === 'number' && value > s.maximum) errors.push(`${at}: above ${s.maximum}`);
      if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum)
        errors.push(`${at}: not above ${s.exclusiveMinimum}`);
      if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum)
        errors.push(`${at}: not below ${s.exclusiveMaximum}`);
    }
    if (typeof value === 'string') {
      const length = [...value].length;
      if (typeof s.minLength === 'number' && length < s.minLength)
        errors.push(`${at}: shorter than ${s.minLength}`);
      if (typeof s.maxLength === 'number' && length > s.maxLength)
        errors.push(`${at}: longer than ${s.maxLength}`);
      if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(value))
        errors.push(`${at}: does not match ${s.pattern}`);
    }
    return errors;
  }

  private combinations(s: JsonSchema, value: unknown, at: string): string[] {
    const errors: string[] = [];
    const results = (list: unknown) => (list as JsonSchema[]).map((branch) => this.check(branch, value, at));
    if (Array.isArray(s.allOf)) errors.push(...results(s.allOf).flat());
    if (Array.isArray(s.anyOf)) {
      const all = results(s.anyOf);
      if (!all.some((e) => e.length === 0))
        errors.push(`${at}: fits none of anyOf (${all.map((e) => e.join('; ')).join(' | ')})`);
    }
    if (Array.isArray(s.oneOf)) {
      const fitting = results(s.oneOf).filter((e) => e.length === 0).length;
      if (fitting !== 1) errors.push(`${at}: fits ${fitting} branches of oneOf, not exactly 1`);
    }
    return errors;
  }

  private array(s: JsonSchema, value: unknown[], at: string): string[] {
    const errors: string[] = [];
    if (typeof s.minItems === 'number' && value.length < s.minItems)
      errors.push(`${at}: fewer than ${s.minItems} items`);
    if (typeof s.maxItems === 'number' && value.length > s.maxItems)
      errors.push(`${at}: more than ${s.maxItems} items`);
    if (s.items !== undefined) {
      value.forEach((item, i) => {
        errors.push(...this.check(s.items as JsonSchema, item, `${at}[${i}]`));
      });
    }
    return errors;
  }

  private object(s: JsonSchema, value: Record<string, unknown>, at: string): string[] {
    const errors: string[] = [];
    const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
    for (const name of (s.required ?? []) as string[]) {
      if (!(name in value)) errors.push(`${at}.${name}: required but missing`);
    }
    for (const [name, item] of Object.entries(value)) {
      const declared = properties[name];
      if (s.propertyNames !== undefined)
        errors.push(...this.check(s.propertyNames as JsonSchema, name, `${at} key '${name}'`));
      if (declared) errors.push(...this.check(declared, item, `${at}.${name}`));
      else if (s.additionalProperties === false) errors.push(`${at}.${name}: not a documented property`);
      else if (typeof s.additionalProperties === 'object') {
        errors.push(...this.check(s.additionalProperties as JsonSchema, item, `${at}.${name}`));
      }
    }
    return errors;
  }
}
