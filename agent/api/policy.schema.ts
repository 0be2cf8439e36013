import * as z from 'zod';

const property = z.object({
  name: z.string({ error: 'a property needs a name' }),
  value: z.unknown(),
  type: z.string().optional(),
});

const section = z.object({
  properties: z.array(property).nullish(),
  constraints: z.array(z.string()).nullish(),
});

/** POST/PUT /node/policy: a whole node policy (v2 shape; unknown fields ignored as upstream). */
export const policyBody = z.object({
  label: z.string().optional(),
  description: z.string().optional(),
  properties: z.array(property).nullish(),
  constraints: z.array(z.string()).nullish(),
  deployment: section.nullish(),
  management: section.nullish(),
});

/** PATCH /node/policy: any of the same fields; each one given is applied. */
export const policyPatch = policyBody.refine(
  (p) =>
    ['properties', 'constraints', 'deployment', 'management', 'label', 'description'].some((k) =>
      Object.hasOwn(p, k),
    ),
  "Input body does not contain 'properties', 'constraints', 'deployment' or 'management' attribute.",
);
