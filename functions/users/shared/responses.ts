import * as z from 'zod';

/** Response bodies of the user endpoints (docs/exchange.md#record-shapes, #users). */
export const apiKeyMetadata = z.object({
  id: z.string(),
  description: z.string(),
  label: z.string(),
  lastUpdated: z.string(),
  owner: z.string().optional(),
});

/** The password is masked (or "" when the user has none). */
export const user = z.object({
  admin: z.boolean(),
  apikeys: z.array(apiKeyMetadata),
  email: z.string(),
  hubAdmin: z.boolean(),
  lastUpdated: z.string(),
  password: z.string(),
  updatedBy: z.string(),
});

/** Keyed by `org/username`; lastIndex is always 0. */
export const getUsersResponse = z.object({ users: z.record(z.string(), user), lastIndex: z.number().int() });
