import * as z from 'zod';

/** Response schemas of the secrets manager. */
export const secretValue = z.object({ key: z.string(), value: z.string() });
export const secretNames = z.union([
  z.array(z.string()),
  z.array(z.object({ name: z.string(), lastUpdated: z.string() })),
]);
