import * as z from 'zod';

/**
 * Request bodies of what a node reports (docs/exchange-catalog.md#node-sub-resources): status, errors, services' config state.
 * Strict like every body here; `null` counts as absent. Service fields the agent leaves out when
 * empty (anax's `omitempty`) are optional and stored as ""; `containerStatus` anax always sends.
 */
const containerStatus = z.strictObject({
  name: z.string(),
  image: z.string(),
  created: z.number().int(),
  state: z.string(),
});

const oneService = z.strictObject({
  agreementId: z.string().nullish(),
  serviceUrl: z.string().nullish(),
  orgid: z.string().nullish(),
  version: z.string().nullish(),
  arch: z.string().nullish(),
  // Required as upstream (400 when missing); null is what anax sends for a suspended service.
  containerStatus: z.array(containerStatus).nullable(),
  operatorStatus: z.json().optional(),
  configState: z.string().nullish(),
});
export type OneServiceInput = z.infer<typeof oneService>;

/** `runningServices` is computed on write; a client may send it back (as upstream's document lists it) and it is ignored. */
export const putNodeStatusBody = z.strictObject({
  connectivity: z.record(z.string(), z.boolean()).nullish(),
  services: z.array(oneService),
  runningServices: z.string().nullish(),
});
export type PutNodeStatusBody = z.infer<typeof putNodeStatusBody>;

export const putNodeErrorsBody = z.strictObject({ errors: z.array(z.json()) });

/** `""` is a wildcard for org, url and version. */
export const postConfigStateBody = z.strictObject({
  org: z.string(),
  url: z.string(),
  configState: z.string(),
  version: z.string().nullish(),
});
export type PostConfigStateBody = z.infer<typeof postConfigStateBody>;
