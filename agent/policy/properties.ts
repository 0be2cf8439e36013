import { ConstraintError, parseConstraint } from '../../lib/policy/constraints.ts';
import type { PolicyProperty } from '../exchange/types.ts';
import { badInput } from '../ground/errors.ts';

const TYPES = ['string', 'int', 'float', 'boolean', 'version', 'list of strings', ''];
const VERSION = /^\d+(\.\d+){0,2}$/;

/**
 * Checks a property list (400 naming the offending entry): a non-empty name, a value that is a
 * string, number, boolean or list of strings, and a `type` (when given) that the value fits.
 */
export function validateProperties(properties: PolicyProperty[], input: string): void {
  properties.forEach((property, index) => {
    const where = `${input}[${index}]`;
    if (property.name.trim() === '') throw badInput('a property name must not be empty', `${where}.name`);
    const problem = valueProblem(property.value, property.type);
    if (problem) throw badInput(`property ${property.name}: ${problem}`, `${where}.value`);
  });
}

function valueProblem(value: unknown, type: string | undefined): string | undefined {
  if (value === null || value === undefined) return 'the value must not be null';
  if (typeof value === 'number' && !Number.isFinite(value)) return 'the value must be a finite number';
  const isList = Array.isArray(value) && value.every((item) => typeof item === 'string');
  if (!['string', 'number', 'boolean'].includes(typeof value) && !isList) {
    return 'the value must be a string, a number, a boolean or a list of strings';
  }
  if (type === undefined || type === '') return undefined;
  if (!TYPES.includes(type)) return `type must be one of ${TYPES.filter(Boolean).join(', ')}`;
  return fits(value, type, isList) ? undefined : `the value does not fit type ${type}`;
}

function fits(value: unknown, type: string, isList: boolean): boolean {
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
    case 'list of strings':
      return typeof value === 'string' || isList;
    default:
      return false;
  }
}

/** Parses every constraint expression (400 naming the first one that does not parse). */
export function validateConstraints(constraints: string[], input: string): void {
  constraints.forEach((expression, index) => {
    try {
      parseConstraint(expression);
    } catch (err) {
      if (!(err instanceof ConstraintError)) throw err;
      const shown = expression.length > 200 ? `${expression.slice(0, 200)}…` : expression;
      throw badInput(`constraint "${shown}" is not valid: ${err.message}`, `${input}[${index}]`);
    }
  });
}
