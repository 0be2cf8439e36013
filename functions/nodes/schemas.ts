import * as z from 'zod';
import { idSegment } from '#lib/ids';
import { filterParam } from '#lib/like';
import { pageLimit } from '#lib/page-limit';

/**
 * Request schemas of the node endpoints (docs/exchange.md#nodes). Bodies are strict at every level
 * (upstream rejects unknown properties); `null` counts as absent, as it does for upstream's Options.
 * Semantic rules with upstream's messages live in rules.ts.
 */
export const nodePath = z.object({ organization: idSegment, node: idSegment });
export type NodePath = z.infer<typeof nodePath>;

const int32 = z.number().int().min(-2147483648).max(2147483647);
/** Upstream's parser turns JSON scalars into strings where a string is expected. */
const scalarString = z.union([z.string(), z.number(), z.boolean()]).transform(String);

const prop = z.strictObject({ name: z.string(), value: scalarString, propType: z.string(), op: z.string() });

export const regService = z.strictObject({
  url: z.string(),
  numAgreements: int32.default(0),
  configState: z.string().nullish(),
  policy: z.string().default(''),
  properties: z.array(prop).default([]),
  version: z.string().nullish(),
});
export type RegServiceInput = z.infer<typeof regService>;

const userInput = z.strictObject({
  serviceOrgid: z.string(),
  serviceUrl: z.string(),
  serviceArch: z.string().nullish(),
  serviceVersionRange: z.string().nullish(),
  inputs: z.array(z.strictObject({ name: z.string(), value: z.json() })),
});

const heartbeatIntervals = z.strictObject({
  minInterval: int32.default(0),
  maxInterval: int32.default(0),
  intervalAdjustment: int32.default(0),
});

const nodeFields = {
  token: z.string().nullish(),
  nodeType: z.string().nullish(),
  pattern: z.string().nullish(),
  registeredServices: z.array(regService).nullish(),
  userInput: z.array(userInput).nullish(),
  msgEndPoint: z.string().nullish(),
  softwareVersions: z.record(z.string(), z.string()).nullish(),
  publicKey: z.string().nullish(),
  arch: z.string().nullish(),
  heartbeatIntervals: heartbeatIntervals.nullish(),
  clusterNamespace: z.string().nullish(),
  isNamespaceScoped: z.boolean().nullish(),
};

/** PUT /nodes/{node}: `name` is required; absent fields reset (except token, pattern, publicKey). */
export const putNodeBody = z.strictObject({ name: z.string(), ...nodeFields });
export type PutNodeBody = z.infer<typeof putNodeBody>;

/** PATCH /nodes/{node}: exactly one attribute (checked in the handler, with upstream's message). */
export const patchNodeBody = z.strictObject({ name: z.string().nullish(), ...nodeFields });
export type PatchNodeBody = z.infer<typeof patchNodeBody>;

const oneProperty = z.strictObject({ name: z.string(), type: z.string().nullish(), value: z.json() });
const propertiesAndConstraints = z.strictObject({
  properties: z.array(oneProperty).nullish(),
  constraints: z.array(z.string()).nullish(),
});

export const putNodePolicyBody = z.strictObject({
  label: z.string().nullish(),
  description: z.string().nullish(),
  properties: z.array(oneProperty).nullish(),
  constraints: z.array(z.string()).nullish(),
  deployment: propertiesAndConstraints.nullish(),
  management: propertiesAndConstraints.nullish(),
  nodePolicyVersion: z.string().nullish(),
});
export type PutNodePolicyBody = z.infer<typeof putNodePolicyBody>;

/** A `true`/`false` query parameter (any case). */
const booleanParam = z
  .string()
  .refine((value) => /^(true|false)$/i.test(value), { message: "must be 'true' or 'false'" })
  .transform((value) => value.toLowerCase() === 'true');

export const noHeartbeatQuery = z.object({ noheartbeat: booleanParam.optional() });

export const NODE_TYPES = ['device', 'cluster'] as const;

/** The most nodes one page of GET /orgs/{org}/nodes reads (`limit`, our extension). */
export const NODE_PAGE_MAX = 1000;

export const listNodesQuery = z.object({
  /** Our extension (docs/exchange.md#node-list): a page of this many node records, in id order. */
  limit: pageLimit(NODE_PAGE_MAX).optional(),
  /** Our extension: the nodes after this node id (the previous answer's `next`). */
  after: idSegment.optional(),
  idfilter: filterParam.optional(),
  name: filterParam.optional(),
  owner: filterParam.optional(),
  arch: filterParam.optional(),
  clusternamespace: filterParam.optional(),
  isNamespaceScoped: booleanParam.optional(),
  nodetype: z
    .string()
    .transform((value) => value.toLowerCase())
    .refine((value) => (NODE_TYPES as readonly string[]).includes(value), {
      message: `the 'nodetype' url parameter must have one of these values: ${NODE_TYPES.join(', ')}`,
    })
    .optional(),
});

export const getNodeQuery = z.object({ attribute: z.string().optional() });
