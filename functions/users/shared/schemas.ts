import * as z from 'zod';
import { idSegment } from '#lib/ids';

/** Request schemas of the user endpoints (docs/exchange.md#users). */
export const userPath = z.object({ organization: idSegment, username: idSegment });
export type UserPath = z.infer<typeof userPath>;

/** POST and PUT body. Nulls are accepted here so the rules can answer with upstream's messages. */
export const userBody = z.strictObject({
  password: z.string().nullish(),
  admin: z.boolean().nullish(),
  hubAdmin: z.boolean().nullish(),
  email: z.string().nullish(),
});
export type UserBody = z.infer<typeof userBody>;

/** PATCH body: exactly one attribute (checked in patch-rules.ts with upstream's message). */
export const userPatchBody = z.strictObject({
  password: z.string().nullish(),
  admin: z.boolean().nullish(),
  hubAdmin: z.boolean().nullish(),
  email: z.string().nullish(),
});
export type UserPatchBody = z.infer<typeof userPatchBody>;
