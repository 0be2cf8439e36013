/**
 * Whether a property list satisfies constraint expressions (docs/protocol.md#compatibility-checks check 11, docs/protocol.md#proposals-on-the-node E),
 * following anax's evaluator (externalpolicy/counter_party_properties.go):
 * - every expression of the list must hold (they are ANDed); a missing property is false;
 * - a number property compares numerically with every operator;
 * - a boolean property knows `==`, `=` and `!=` only (Go's ParseBool spellings);
 * - a string property knows `==`, `=`, `!=` and `in`: `==` also matches one item of a
 *   comma-separated value, `in` checks a version against a range when the property is a version,
 *   and a `list of strings` property (or a JSON list) matches when any of its items is listed.
 * The grammar is the one parser of the project; this file only evaluates its tree.
 */

import { isValidVersion, isValidVersionRange, versionInRange } from '#lib/catalog/version-range';
import { type Constraint, ConstraintError, parseConstraint } from '#lib/policy/constraints';
import type { Property } from './policy-document.ts';

export type Check = { ok: true } | { ok: false; reason: string };
export const OK: Check = { ok: true };

/** Every expression holds for `properties`; an expression that does not parse fails the check. */
export function satisfies(constraints: readonly string[], properties: readonly Property[]): Check {
  for (const expression of constraints) {
    let tree: Constraint;
    try {
      tree = parseConstraint(expression);
    } catch (err) {
      if (!(err instanceof ConstraintError)) throw err;
      return { ok: false, reason: `constraint "${expression}" does not parse: ${err.message}` };
    }
    if (!holds(tree, properties)) return { ok: false, reason: `constraint "${expression}" is not satisfied` };
  }
  return OK;
}

function holds(node: Constraint, properties: readonly Property[]): boolean {
  if (node.kind !== 'compare')
    return node.kind === 'and'
      ? holds(node.left, properties) && holds(node.right, properties)
      : holds(node.left, properties) || holds(node.right, properties);
  const property = properties.find((p) => p.name === node.name);
  if (!property) return false;
  const wanted = Array.isArray(node.value) ? node.value : [node.value];
  return compare(property, node.op, wanted);
}

const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);
const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const EQUALITY = new Set(['==', '=', '!=']);

function compare(property: Property, op: string, wanted: string[]): boolean {
  const value = property.value;
  if (typeof value === 'number') return wanted.some((w) => FLOAT.test(w) && numeric(value, op, Number(w)));
  if (typeof value === 'boolean') {
    if (!EQUALITY.has(op) || wanted.length !== 1) return false;
    const w = wanted[0] as string;
    if (!TRUE.has(w) && !FALSE.has(w)) return false;
    return op === '!=' ? value !== TRUE.has(w) : value === TRUE.has(w);
  }
  const items = listItems(value);
  if (!items) return false;
  return textual(property, items, op, wanted);
}

function numeric(value: number, op: string, wanted: number): boolean {
  switch (op) {
    case '<':
      return value < wanted;
    case '>':
      return value > wanted;
    case '<=':
      return value <= wanted;
    case '>=':
      return value >= wanted;
    case '!=':
      return value !== wanted;
    default: // ==, =, and `in` as membership
      return value === wanted;
  }
}

/** A string property's items: a JSON list as is, a string split at commas (trimmed, unquoted). */
function listItems(value: unknown): string[] | undefined {
  if (typeof value === 'string') return value.split(',').map(clean);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.map(clean);
  return undefined;
}

const clean = (text: string): string => {
  const trimmed = text.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')
    ? trimmed.slice(1, -1)
    : trimmed;
};

function textual(property: Property, items: string[], op: string, wanted: string[]): boolean {
  const isList = property.type === 'list of strings' || Array.isArray(property.value);
  const whole = typeof property.value === 'string' ? clean(property.value) : undefined;
  const targets = wanted.map(clean);
  switch (op) {
    case '==':
    case '=':
      return targets.length === 1 && (items.includes(targets[0] as string) || whole === targets[0]);
    case '!=':
      return targets.length === 1 && (isList ? !items.includes(targets[0] as string) : whole !== targets[0]);
    case 'in': {
      const range = targets.length === 1 ? (targets[0] as string) : '';
      if (
        whole !== undefined &&
        (property.type === 'version' || (isValidVersion(whole) && isValidVersionRange(range))) &&
        range
      )
        return versionInRange(whole, range);
      if (isList) return items.some((item) => targets.includes(item));
      return whole !== undefined && targets.includes(whole);
    }
    default:
      return false;
  }
}
