import * as z from 'zod';
import { attributeBody } from './attribute.schema.ts';
import { legal } from './node.schema.ts';

/** POST /service/config (upstream's Service). Unknown fields are ignored. */
export const serviceConfigBody = z.object({
  url: legal.min(1, 'not specified'),
  organization: legal.optional(),
  name: legal.optional(),
  arch: legal.optional(),
  versionRange: z.string().optional(),
  auto_upgrade: z.boolean().default(true),
  active_upgrade: z.boolean().default(false),
  // Attributes apply to this service; a label may be left out here.
  attributes: z.array(attributeBody.extend({ label: legal.default('') })).default([]),
});
export type ServiceConfigBody = z.output<typeof serviceConfigBody>;

const state = z.enum(['active', 'suspended'], { error: 'must be active or suspended' });

/** POST /service/configstate: the state key may be spelled `configState` or `configstate`. */
export const configStateBody = z
  .object({
    url: z.string().default(''),
    org: z.string().default(''),
    version: z.string().default(''),
    configState: state.optional(),
    configstate: state.optional(),
  })
  .transform(({ configstate, configState, ...rest }) => ({ ...rest, state: configState ?? configstate }));
