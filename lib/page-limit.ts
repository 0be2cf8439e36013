import * as z from 'zod';

/**
 * A `?limit=` query parameter of a paged read: a whole number from 1 to `max`, as text (query
 * strings are text), read as a number. One rule for every paged route, so each 400 says the same.
 */
export const pageLimit = (max: number) => {
  const message = `must be a whole number from 1 to ${max}`;
  return z
    .string()
    .regex(new RegExp(`^\\d{1,${String(max).length}}$`), message)
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, message);
};
