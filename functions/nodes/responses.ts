import * as z from 'zod';
import { heartbeatIntervals } from '#functions/orgs/shared/responses';

/** Response bodies of the node endpoints (docs/exchange.md#record-shapes, #nodes), as node-view.ts and policy-view.ts build them. */
const int = z.number().int();

export const prop = z.object({ name: z.string(), value: z.string(), propType: z.string(), op: z.string() });

export const regService = z.object({
  url: z.string(),
  numAgreements: int,
  configState: z.string(),
  policy: z.string(),
  properties: z.array(prop),
  version: z.string(),
});

export const userInputService = z.object({
  serviceOrgid: z.string(),
  serviceUrl: z.string(),
  serviceArch: z.string().nullable(),
  serviceVersionRange: z.string().nullable(),
  inputs: z.array(z.object({ name: z.string(), value: z.json() })),
});

/** The token is always masked. */
export const node = z.object({
  token: z.string(),
  name: z.string(),
  owner: z.string(),
  nodeType: z.string(),
  pattern: z.string(),
  registeredServices: z.array(regService),
  userInput: z.array(userInputService),
  msgEndPoint: z.string(),
  softwareVersions: z.record(z.string(), z.string()),
  lastHeartbeat: z.string(),
  publicKey: z.string(),
  arch: z.string(),
  heartbeatIntervals,
  ha_group: z.string().nullable(),
  lastUpdated: z.string(),
  clusterNamespace: z.string(),
  isNamespaceScoped: z.boolean(),
});

/** Keyed by `org/id`; lastIndex is always 0. */
export const getNodesResponse = z.object({
  nodes: z.record(z.string(), node),
  lastIndex: int,
  /** Our extension: present when more nodes follow; pass it as `after` (docs/exchange.md#node-list). */
  next: z.string().optional(),
});

export const oneProperty = z.object({ name: z.string(), type: z.string().optional(), value: z.json() });

export const propertiesAndConstraints = z.object({
  properties: z.array(oneProperty).nullable(),
  constraints: z.array(z.string()).nullable(),
});

export const nodePolicy = z.object({
  label: z.string(),
  description: z.string(),
  properties: z.array(oneProperty),
  constraints: z.array(z.string()),
  deployment: propertiesAndConstraints,
  management: propertiesAndConstraints,
  nodePolicyVersion: z.string(),
  lastUpdated: z.string(),
});
