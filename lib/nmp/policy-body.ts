import * as z from 'zod';
import { ConstraintError, parseConstraint } from '#lib/policy/constraints';

/**
 * A node management policy as written by POST and PUT (upstream's PostPutManagementPolicyRequest;
 * docs/nmp.md#the-exchange), and the checks upstream leaves to `hzn exchange nmp add`: the
 * Exchange and `hzn` both run them, so a policy the CLI accepts is one the Exchange stores.
 * `null` stands for absent (Go's nil lists arrive as `null`). Strings and lists are bounded.
 */
const SHORT = 4096;
const short = z.string().max(SHORT, `must be at most ${SHORT} characters`);
const list = <T extends z.ZodType>(entry: T) => z.array(entry).max(1000, 'must have at most 1000 entries');

/** `org/name` or a bare name: no whitespace, at most one slash. */
const reference = z
  .string()
  .max(513, 'must be at most 513 characters')
  .regex(/^[^\s/]+(\/[^\s/]+)?$/, "must be 'org/name' or 'name'");

export const nmpProperty = z.strictObject({ name: short, type: short.nullish(), value: z.json() });
export type NmpProperty = z.infer<typeof nmpProperty>;

export const agentUpgradePolicy = z.strictObject({
  manifest: z.union([z.literal(''), reference]).default(''),
  allowDowngrade: z.boolean().default(false),
});

export const managementPolicyBody = z.strictObject({
  label: short,
  description: short.nullish(),
  properties: list(nmpProperty).nullish(),
  constraints: list(short).nullish(),
  patterns: list(reference).nullish(),
  enabled: z.boolean(),
  start: short.nullish(),
  startWindow: z.number().int('must be an integer').nullish(),
  agentUpgradePolicy: agentUpgradePolicy.nullish(),
});
export type ManagementPolicyBody = z.infer<typeof managementPolicyBody>;

const PROPERTY_TYPES = ['string', 'int', 'float', 'boolean', 'version', 'list of strings'];
const VERSION = /^\d+(\.\d+){0,2}$/;

/** Whether `value` fits a declared property type (anax's externalpolicy/property_list.go types). */
function fitsType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'int':
      return Number.isInteger(value);
    case 'float':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'version':
      return typeof value === 'string' && VERSION.test(value);
    default:
      return typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
  }
}

/** `"now"` or an RFC 3339 time with a zone (what anax's time.Parse(time.RFC3339) accepts). */
export const isStartTime = (start: string): boolean =>
  start === 'now' ||
  (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(start) &&
    !Number.isNaN(Date.parse(start)));

/**
 * The first problem with a policy body, as a message naming the field; undefined when it is fine.
 * Upstream's only server-side rule comes first (constraints and patterns both present, `[]`
 * counting as present); then the start time, the window, the properties and the constraints.
 */
export function managementPolicyProblem(body: ManagementPolicyBody): string | undefined {
  if (body.constraints != null && body.patterns != null)
    return 'you can not specify both constraints and patterns';
  const start = body.start ?? 'now';
  if (!isStartTime(start))
    return `invalid input: body field 'start': '${start.slice(0, 100)}' must be "now" or an RFC 3339 time`;
  for (const [index, property] of (body.properties ?? []).entries()) {
    const where = `invalid input: body field 'properties.${index}'`;
    if (property.name.trim() === '') return `${where}: the name must not be empty`;
    if (property.type != null && property.type !== '' && !PROPERTY_TYPES.includes(property.type))
      return `${where}: type must be one of ${PROPERTY_TYPES.join(', ')}`;
    if (property.type && !fitsType(property.value, property.type))
      return `${where}: the value does not fit type ${property.type}`;
  }
  for (const [index, constraint] of (body.constraints ?? []).entries()) {
    try {
      parseConstraint(constraint);
    } catch (error) {
      if (!(error instanceof ConstraintError)) throw error;
      return `invalid input: body field 'constraints.${index}': '${constraint.slice(0, 200)}' is not a valid constraint: ${error.message}`;
    }
  }
  return undefined;
}
