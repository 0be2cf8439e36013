import * as z from 'zod';

const input = z.object({
  name: z.string().min(1, 'must not be empty'),
  value: z.unknown().refine((v) => v !== undefined && v !== null, 'must not be null'),
});

/** One node user input entry (serviceArch and serviceVersionRange may be left out or null). */
export const userInputEntry = z.object({
  serviceOrgid: z.string().min(1, 'must not be empty'),
  serviceUrl: z.string().min(1, 'must not be empty'),
  serviceArch: z.string().nullish(),
  serviceVersionRange: z.string().nullish(),
  inputs: z.array(input),
});

/** POST, PUT and PATCH /node/userinput take a list of entries. */
export const userInputBody = z.array(userInputEntry);
