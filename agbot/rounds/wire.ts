/**
 * What the agbot reads from the Exchange, checked with zod: a record of another shape is skipped,
 * never trusted (the Exchange is a peer, and upstream's may differ in fields we do not use).
 */
import * as z from 'zod';
import { lenientList, nodeHealth, serviceVersion } from '#lib/protocol/catalog-records';
import { propertySchema, userInputSchema } from '#lib/protocol/policy-document';
import { secretBindingSchema } from '#lib/protocol/secret-binding';

const list = lenientList;

export const changesAnswer = z.object({
  changes: z.array(
    z
      .object({
        orgId: z.string(),
        resource: z.string(),
        id: z.string(),
        operation: z.string(),
        /** Upstream's list of the row's changes; an Exchange without it has each change re-checked. */
        resourceChanges: z.array(z.object({ changeId: z.number().int() }).loose()).optional(),
      })
      .loose(),
  ),
  mostRecentChangeId: z.number().int(),
  hitMaxRecords: z.boolean().optional(),
});
export const maxChangeIdAnswer = z.object({ maxChangeId: z.number().int() });
export type FeedChange = z.infer<typeof changesAnswer>['changes'][number];

export const agbotMessage = z.object({
  msgId: z.number().int(),
  nodeId: z.string(),
  nodePubKey: z.string(),
  message: z.string(),
  /** When the Exchange stored it: how long an unusable message has waited (the grace period). */
  timeSent: z.string().optional(),
});
export type AgbotMessage = z.infer<typeof agbotMessage>;
export const messagesAnswer = z.object({ messages: list(agbotMessage) });

export const servedPoliciesAnswer = z.object({
  businessPols: z.record(
    z.string(),
    z.object({ businessPolOrgid: z.string(), businessPol: z.string(), nodeOrgid: z.string() }),
  ),
});
export const servedPatternsAnswer = z.object({
  patterns: z.record(
    z.string(),
    z.object({ patternOrgid: z.string(), pattern: z.string(), nodeOrgid: z.string() }),
  ),
});

export const deploymentPolicy = z.object({
  service: z.object({
    name: z.string(),
    org: z.string(),
    arch: z.string(),
    serviceVersions: list(serviceVersion),
    nodeHealth,
  }),
  properties: list(propertySchema),
  constraints: list(z.string()),
  userInput: list(userInputSchema),
  secretBinding: list(secretBindingSchema),
  lastUpdated: z.string().optional(),
});
export type DeploymentPolicy = z.infer<typeof deploymentPolicy>;
export const deploymentPoliciesAnswer = z.object({ businessPolicy: z.record(z.string(), z.unknown()) });

export const patternsAnswer = z.object({ patterns: z.record(z.string(), z.unknown()) });

export const searchAnswer = z.object({
  nodes: list(
    z.object({ id: z.string(), publicKey: z.string().optional(), nodeType: z.string().optional() }),
  ),
  session: z.string().optional(),
});

export const nodeRecord = z.object({
  pattern: z.string(),
  publicKey: z.string(),
  arch: z.string(),
  userInput: list(userInputSchema),
  heartbeatIntervals: z.object({ maxInterval: z.number().int().optional() }).loose().nullish(),
});
export type NodeRecord = z.infer<typeof nodeRecord>;
export const nodesAnswer = z.object({ nodes: z.record(z.string(), z.unknown()) });

export const nodePolicy = z.object({
  properties: list(propertySchema),
  constraints: list(z.string()),
  deployment: z.object({ properties: list(propertySchema), constraints: list(z.string()) }).nullish(),
});
export type NodePolicy = z.infer<typeof nodePolicy>;

export const serviceRecord = z.object({
  url: z.string(),
  version: z.string(),
  arch: z.string(),
  deployment: z.string(),
  deploymentSignature: z.string(),
  userInput: list(
    z.object({ name: z.string(), type: z.string().optional(), defaultValue: z.string().optional() }),
  ),
});
export type ServiceRecord = z.infer<typeof serviceRecord>;
export const servicesAnswer = z.object({ services: z.record(z.string(), z.unknown()) });

export const servicePolicy = z.object({ properties: list(propertySchema), constraints: list(z.string()) });

export const secretValue = z.object({ key: z.string(), value: z.string() });

/** The one entry of a `{<key>: record}` answer under `field`, parsed; undefined when absent or malformed. */
export function oneOf<T extends z.ZodType>(
  answer: unknown,
  field: string,
  id: string,
  schema: T,
): z.infer<T> | undefined {
  const records = (answer as Record<string, unknown> | undefined)?.[field];
  if (typeof records !== 'object' || records === null || !Object.hasOwn(records, id)) return undefined;
  const parsed = schema.safeParse((records as Record<string, unknown>)[id]);
  return parsed.success ? parsed.data : undefined;
}
