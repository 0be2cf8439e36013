import * as z from 'zod';
import { ATTRIBUTE_TYPES } from '../attributes/store.ts';
import { legal } from './node.schema.ts';

const serviceSpec = z.object({ url: legal, organization: legal.default('') });
const type = z.enum(ATTRIBUTE_TYPES, { error: 'Unmappable type field' });
/** Mapping keys follow the legal-character rule; values are checked per type (attributes/mappings.ts). */
const mappings = z.record(legal, z.unknown(), { error: 'nil value' });

/** POST /attribute and PUT /attribute/{id} (an `id` in the body is ignored, as upstream does). */
export const attributeBody = z.object({
  type,
  label: legal,
  publishable: z.boolean().default(true),
  host_only: z.boolean().default(false),
  service_specs: z.array(serviceSpec).nullish(),
  mappings,
});
export type AttributeBody = z.output<typeof attributeBody>;

/** PATCH /attribute/{id}: the type names what is patched; every other field is optional. */
export const attributePatch = z.object({
  type: z.enum(ATTRIBUTE_TYPES, { error: 'partial update with missing type is not supported' }),
  label: legal.optional(),
  publishable: z.boolean().optional(),
  host_only: z.boolean().optional(),
  service_specs: z.array(serviceSpec).nullish(),
  mappings: mappings.nullish(),
});
export type AttributePatch = z.output<typeof attributePatch>;
