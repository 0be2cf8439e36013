import { type Caller, isSuperUser } from '#lib/auth/caller';
import { NODE_TYPES, type PutNodeBody, type RegServiceInput } from './schemas.ts';

/** Upstream's validation rules for node bodies (docs/exchange.md#node-put/#node-patch), with its messages. */

/** `1`, `1.2`, `1.2.3` or `infinity` (upstream's Version). */
export function isValidVersion(version: string): boolean {
  const value = version.trim().toLowerCase();
  return value === 'infinity' || /^\d+(\.\d+){0,2}$/.test(value);
}

/** An OSGi range such as `[1.2.3,4.5.6)` or a single version `1.0.0` (= at least 1.0.0). */
export function isValidVersionRange(range: string): boolean {
  const text = range.trim().toLowerCase();
  // Like Java's String.split: trailing empty parts are dropped. Split and trim, not /\s*,\s*/:
  // that regex backtracks quadratically over a long run of spaces (seconds for 80,000).
  const parts = text.split(',').map((part) => part.trim());
  while (parts.length > 0 && parts.at(-1) === '') parts.pop();
  if (parts.length === 0 || parts.length > 2) return false;
  const [first = '', second = 'infinity'] = parts;
  if (first.trim() === '' || second.trim() === '') return false;
  const floor = /^[[(]?(\d.*)$/.exec(first)?.[1];
  const ceiling = /^(.*\d)[\])]?$/.exec(second)?.[1] ?? /^(infinity)[\])]?$/.exec(second)?.[1];
  return floor !== undefined && ceiling !== undefined && isValidVersion(floor) && isValidVersion(ceiling);
}

const PROP_TYPES = ['string', 'list', 'version', 'boolean', 'int', 'wildcard'];
const OPS = ['=', '>=', '<=', 'in'];
const isInt32 = (value: string) =>
  /^[+-]?\d+$/.test(value) && Number(value) >= -2147483648 && Number(value) <= 2147483647;

type Prop = RegServiceInput['properties'][number];

/** The first problem with one registeredServices property, or undefined. */
function propertyProblem({ name, value, propType, op }: Prop): string | undefined {
  if (!PROP_TYPES.includes(propType)) return `invalid propType '${propType}' specified for ${name}`;
  if (!OPS.includes(op)) return `invalid op '${op}' specified for ${name}`;
  if (propType === 'boolean') {
    if (op !== '=')
      return `invalid op '${op}' specified for ${name} (only '=' is supported for propType 'boolean')`;
    if (!['true', 'false'].includes(value.toLowerCase()) && value !== '*') {
      return `invalid boolean value '${value}' specified for ${name}`;
    }
  }
  if ((propType === 'list' || propType === 'string') && op !== 'in') {
    return `invalid op '${op}' specified for ${name} (only 'in' is supported for propType 'string' and 'list')`;
  }
  if (propType === 'int') {
    if (op === 'in') return `invalid op '${op}' specified for ${name}`;
    if (value !== '*' && !isInt32(value)) return `${value}, not a valid 32-bit signed integer value`;
  }
  if (propType === 'version') {
    if (op !== '=' && op !== 'in') {
      return `invalid op '${op}' specified for ${name} (only '=' or 'in' is supported for propType 'version')`;
    }
    if (value !== '*' && !isValidVersionRange(value))
      return `invalid version value '${value}' specified for ${name}`;
  }
  return undefined;
}

export function registeredServicesProblem(
  services: RegServiceInput[] | null | undefined,
): string | undefined {
  for (const service of services ?? []) {
    for (const property of service.properties) {
      const problem = propertyProblem(property);
      if (problem) return problem;
    }
  }
  return undefined;
}

export const nodeTypeProblem = (nodeType: string | null | undefined): string | undefined =>
  nodeType != null && !(NODE_TYPES as readonly string[]).includes(nodeType)
    ? `the 'nodeType' attribute must have one of these values: ${NODE_TYPES.join(', ')}`
    : undefined;

export const publicKeyNotToken = (resource: string) =>
  `public key is set for node '${resource}', cannot set a token`;
export const EMPTY_TOKEN = 'the token can not be set to the empty string';
/** A node names a pattern that does not exist, or one it may not use. */
export const missingPattern = (pattern: string) =>
  `the referenced pattern does not exist in the exchange: ${pattern}`;

/** Checks of a PUT body that need no data, in upstream's order; returns the first problem. */
export function putBodyProblem(
  body: PutNodeBody,
  caller: Caller,
  org: string,
  id: string,
): string | undefined {
  const resource = `${org}/${id}`;
  const typeProblem = nodeTypeProblem(body.nodeType);
  if (typeProblem) return typeProblem;
  if (body.pattern && !body.pattern.includes('/')) {
    return "the 'pattern' attribute must have the orgid prepended, with a slash separating";
  }
  const present = [body.token, body.pattern, body.publicKey].filter((value) => value != null).length;
  if (present !== 0 && present !== 3) return publicKeyNotToken(resource);
  if (!isSuperUser(caller) && body.token === '') return EMPTY_TOKEN;
  if (id === 'iamapikey' || id === 'iamtoken') return "Node id cannot be 'iamapikey' or 'iamtoken'";
  return registeredServicesProblem(body.registeredServices);
}

/** A DynamoDB item holds at most 400 KB: refuse a body that could not be stored rather than fail with a 500. */
const MAX_BODY_BYTES = 350_000;
export const sizeProblem = (body: unknown): string | undefined =>
  Buffer.byteLength(JSON.stringify(body)) > MAX_BODY_BYTES
    ? `invalid input: the request body is larger than ${MAX_BODY_BYTES} bytes`
    : undefined;
