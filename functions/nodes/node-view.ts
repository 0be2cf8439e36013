import type * as z from 'zod';
import { MASKED } from '#lib/auth/secrets';
import type { NodeRecord } from '#tables/node/records';
import type { node as nodeResponse } from './responses.ts';

/**
 * Nodes as upstream returns them (docs/exchange.md#record-shapes). Objects are rebuilt field by field because
 * DynamoDB does not keep the order of a map's keys, and clients read attribute values as JSON text.
 */
// biome-ignore lint/suspicious/noExplicitAny: stored lists are validated on write and read back loosely.
type Loose = Record<string, any>;

const regService = (rs: Loose) => ({
  url: rs.url,
  numAgreements: rs.numAgreements ?? 0,
  configState: rs.configState ?? 'active',
  policy: rs.policy ?? '',
  properties: ((rs.properties ?? []) as Loose[]).map((p) => ({
    name: p.name,
    value: p.value,
    propType: p.propType,
    op: p.op,
  })),
  ...(rs.version != null ? { version: rs.version } : {}),
});

const userInput = (ui: Loose, absent: null | undefined) => ({
  serviceOrgid: ui.serviceOrgid,
  serviceUrl: ui.serviceUrl,
  serviceArch: ui.serviceArch ?? absent,
  serviceVersionRange: ui.serviceVersionRange ?? absent,
  inputs: ((ui.inputs ?? []) as Loose[]).map((input) => ({ name: input.name, value: input.value })),
});

const heartbeatIntervals = (node: NodeRecord) => ({
  minInterval: node.heartbeatIntervals.minInterval,
  maxInterval: node.heartbeatIntervals.maxInterval,
  intervalAdjustment: node.heartbeatIntervals.intervalAdjustment,
});

/** Typed by the response schema: a stored field that is not in it fails `tsc`. */
export function nodeView(node: NodeRecord): z.infer<typeof nodeResponse> {
  return {
    token: MASKED,
    name: node.name,
    owner: node.owner,
    nodeType: node.nodeType || 'device',
    pattern: node.pattern,
    registeredServices: (node.registeredServices as Loose[]).map((rs) => ({
      ...regService(rs),
      version: rs.version ?? '',
    })),
    userInput: (node.userInput as Loose[]).map((ui) => userInput(ui, null)),
    msgEndPoint: node.msgEndPoint,
    softwareVersions: node.softwareVersions,
    // Upstream sends null here; its own OpenAPI schema (and our clients) want a string.
    lastHeartbeat: node.lastHeartbeat ?? '',
    publicKey: node.publicKey,
    arch: node.arch,
    heartbeatIntervals: heartbeatIntervals(node),
    ha_group: node.ha_group ?? null,
    lastUpdated: node.lastUpdated,
    clusterNamespace: node.clusterNamespace ?? '',
    isNamespaceScoped: node.isNamespaceScoped,
  };
}

/**
 * `?attribute=` values (names case-insensitive): raw strings, JSON text for structured ones. A Map,
 * not an object: a caller's name such as `constructor` must not reach `Object.prototype`.
 */
const ATTRIBUTES = new Map<string, (node: NodeRecord) => string>([
  ['arch', (node) => node.arch],
  ['clusternamespace', (node) => node.clusterNamespace ?? ''],
  ['ha_group', (node) => node.ha_group ?? ''],
  ['heartbeatintervals', (node) => JSON.stringify(heartbeatIntervals(node))],
  ['id', (node) => `${node.org}/${node.id}`],
  ['lastheartbeat', (node) => node.lastHeartbeat ?? ''],
  ['lastupdated', (node) => node.lastUpdated],
  ['msgendpoint', (node) => node.msgEndPoint],
  ['name', (node) => node.name],
  ['nodetype', (node) => node.nodeType],
  ['owner', (node) => node.owner],
  ['pattern', (node) => node.pattern],
  ['publickey', (node) => node.publicKey],
  ['registeredservices', (node) => JSON.stringify((node.registeredServices as Loose[]).map(regService))],
  ['softwareversions', (node) => JSON.stringify(node.softwareVersions)],
  ['token', () => MASKED],
  ['userinput', (node) => JSON.stringify((node.userInput as Loose[]).map((ui) => userInput(ui, undefined)))],
]);

/** The value of one attribute, or undefined when the name is not one (upstream then returns the node). */
export function nodeAttribute(node: NodeRecord, attribute: string): string | undefined {
  return ATTRIBUTES.get(attribute.toLowerCase())?.(node);
}
