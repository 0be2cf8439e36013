import * as z from 'zod';

/** Response bodies of the service endpoints (docs/exchange-catalog.md#service-body-and-shape, #service-policy-keys-and-dockauths), as the views build them. */
export const serviceRef = z.object({
  url: z.string(),
  org: z.string(),
  version: z.string().optional(),
  versionRange: z.string(),
  arch: z.string(),
});

export const service = z.object({
  owner: z.string(),
  label: z.string(),
  description: z.string(),
  public: z.boolean(),
  documentation: z.string(),
  url: z.string(),
  version: z.string(),
  arch: z.string(),
  sharable: z.string(),
  matchHardware: z.record(z.string(), z.json()),
  requiredServices: z.array(serviceRef),
  userInput: z.array(z.record(z.string(), z.string())),
  deployment: z.string(),
  deploymentSignature: z.string(),
  clusterDeployment: z.string(),
  clusterDeploymentSignature: z.string(),
  imageStore: z.record(z.string(), z.json()),
  lastUpdated: z.string(),
  organization: z.string(),
});

/** `{services: {"<org>/<id>": Service}, lastIndex: 0}`. */
export const getServicesResponse = z.object({
  services: z.record(z.string(), service),
  lastIndex: z.number().int(),
});

export const servicePolicy = z.object({
  label: z.string(),
  description: z.string(),
  properties: z.array(z.object({ name: z.string(), type: z.string().optional(), value: z.json() })),
  constraints: z.array(z.string()),
  lastUpdated: z.string(),
});

/** The token is always masked (upstream returns it in clear). */
export const serviceDockAuth = z.object({
  dockAuthId: z.number().int(),
  registry: z.string(),
  username: z.string(),
  token: z.string(),
  lastUpdated: z.string(),
});

export const dockAuthList = z.array(serviceDockAuth);
export const keyIdList = z.array(z.string());
