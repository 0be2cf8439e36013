import type { z } from 'zod';
import { badInput } from './errors.ts';

/** Turns the first zod issue into a message that names the offending field. */
function describeIssue(issue: z.core.$ZodIssue, where: string): string {
  const field = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => (field ? `${field}.${key}` : key));
    return `invalid input: unknown ${where} field${keys.length > 1 ? 's' : ''} ${keys.map((k) => `'${k}'`).join(', ')}`;
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) {
    return `invalid input: ${where} field '${field}' is required`;
  }
  const message = issue.message.replace(/^Invalid input: /, '');
  return field
    ? `invalid input: ${where} field '${field}': ${message}`
    : `invalid input: ${where}: ${message}`;
}

/** Validates `value` against `schema`, throwing 400 invalid-input that names the field. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw badInput(issue ? describeIssue(issue, where) : `invalid input: ${where}`);
}
