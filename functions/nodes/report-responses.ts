import * as z from 'zod';

/** Response bodies of the node status and errors reads (docs/exchange-catalog.md#node-sub-resources), as status-view.ts builds them. */
export const containerStatus = z.object({
  name: z.string(),
  image: z.string(),
  created: z.number().int(),
  state: z.string(),
});

export const oneService = z.object({
  agreementId: z.string(),
  serviceUrl: z.string(),
  orgid: z.string(),
  version: z.string(),
  arch: z.string(),
  containerStatus: z.array(containerStatus),
  operatorStatus: z.json().optional(),
  configState: z.string().optional(),
});

export const nodeStatus = z.object({
  connectivity: z.record(z.string(), z.boolean()),
  services: z.array(oneService),
  runningServices: z.string(),
  lastUpdated: z.string(),
});

export const nodeErrors = z.object({ errors: z.array(z.json()), lastUpdated: z.string() });
