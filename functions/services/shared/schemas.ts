import * as z from 'zod';
import { idSegment, MAX_ID_BYTES, maxUtf8Bytes } from '#lib/ids';
import { filterParam } from '#lib/like';

/**
 * Request schemas of the service endpoints (docs/exchange-catalog.md#services). Bodies are strict at every
 * level (unknown fields → 400 naming them); `null` counts as absent, as for upstream's Options.
 * Every string has a bound below 100 KB so a hostile body is a 400 naming the field, never an item
 * DynamoDB refuses. Upstream's rules with its messages live in rules.ts.
 */

/** Short texts (urls, versions, names); the deployment strings may be long (kept byte for byte). */
const SHORT = 4096;
const LONG = 90_000;
const short = z.string().max(SHORT, `must be at most ${SHORT} characters`);
const long = z.string().max(LONG, `must be at most ${LONG} characters`);
const list = <T extends z.ZodType>(item: T) => z.array(item).max(1000, 'must have at most 1000 entries');

/** A service id in a path: anything but a slash (ids keep `:`, `+`, `#`...), within the key budget. */
const serviceSegment = z
  .string()
  .min(1, 'must not be empty')
  .refine(...maxUtf8Bytes(MAX_ID_BYTES))
  .regex(/^[^/]+$/, 'must not contain a slash');

export const servicesPath = z.object({ organization: idSegment });
export const servicePath = z.object({ organization: idSegment, service: serviceSegment });
export type ServicePath = z.infer<typeof servicePath>;
export const keyPath = servicePath.extend({ keyid: idSegment });
/** Upstream parses the id as an integer; the message keeps its wording. */
export const dockAuthPath = servicePath.extend({
  dockauthid: z
    .string()
    .regex(/^\d{1,9}$/, 'dockauthid must be an integer')
    .transform(Number),
});

export const serviceRef = z.strictObject({
  url: short,
  org: short,
  version: short.nullish(),
  versionRange: short.nullish(),
  arch: short,
});
export type ServiceRefInput = z.infer<typeof serviceRef>;

/** Upstream's userInput entries are string → string maps (`name`, `label`, `type`, `defaultValue`). */
const userInputEntry = z.record(short, long);
/** Any JSON object (matchHardware, imageStore): stored as its JSON text. */
const jsonObject = z.record(short, z.json());

const serviceFields = {
  label: short,
  description: long.nullish(),
  public: z.boolean().nullish(),
  documentation: short.nullish(),
  url: short,
  version: short,
  arch: short,
  sharable: short,
  matchHardware: jsonObject.nullish(),
  requiredServices: list(serviceRef).nullish(),
  userInput: list(userInputEntry).nullish(),
  deployment: long.nullish(),
  deploymentSignature: long.nullish(),
  clusterDeployment: long.nullish(),
  clusterDeploymentSignature: long.nullish(),
  imageStore: jsonObject.nullish(),
};

/** POST and PUT (upstream's PostPutServiceRequest). */
export const serviceBody = z.strictObject(serviceFields);
export type ServiceBody = z.infer<typeof serviceBody>;

/** PATCH: every field optional; the handler applies the first one present in upstream's order. */
export const patchServiceBody = z.strictObject({
  ...serviceFields,
  label: short.nullish(),
  url: short.nullish(),
  version: short.nullish(),
  arch: short.nullish(),
  sharable: short.nullish(),
});
export type PatchServiceBody = z.infer<typeof patchServiceBody>;

export const getServiceQuery = z.object({ attribute: short.optional() });

/** A `true`/`false` query parameter (any case). */
export const booleanParam = z
  .string()
  .refine((value) => /^(true|false)$/i.test(value), { message: "must be 'true' or 'false'" })
  .transform((value) => value.toLowerCase() === 'true');

const listFilters = {
  owner: filterParam.optional(),
  public: booleanParam.optional(),
  url: filterParam.optional(),
  version: filterParam.optional(),
  arch: filterParam.optional(),
  nodetype: filterParam.optional(),
  requiredurl: filterParam.optional(),
};

/** GET /orgs/{org}/services (docs/exchange-catalog.md#service-visibility). */
export const listServicesQuery = z.object(listFilters);

/** GET /catalog/services (docs/exchange-catalog.md#catalog-of-services): also `organization`; `orgtype` is accepted and ignored. */
export const catalogServicesQuery = z.object({
  ...listFilters,
  organization: filterParam.optional(),
  orgtype: filterParam.optional(),
});
export type CatalogServicesQuery = z.infer<typeof catalogServicesQuery>;

const oneProperty = z.strictObject({ name: short, type: short.nullish(), value: z.json() });

/** PUT …/policy (upstream's PutServicePolicyRequest). */
export const servicePolicyBody = z.strictObject({
  label: short.nullish(),
  description: long.nullish(),
  properties: list(oneProperty).nullish(),
  constraints: list(z.string().max(8192, 'must be at most 8192 characters')).nullish(),
});
export type ServicePolicyBody = z.infer<typeof servicePolicyBody>;

/** POST/PUT …/dockauths (upstream's PostPutServiceDockAuthRequest). */
export const dockAuthBody = z.strictObject({
  registry: short,
  username: short.nullish(),
  token: long,
});

/** The raw text of a key or certificate (PUT …/keys/{keyid}). */
export const MAX_KEY_LENGTH = 65_536;
export const keyBodyDoc = z.string().max(MAX_KEY_LENGTH);
