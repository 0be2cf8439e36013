import type { NodeChanges } from '#tables/node/records';
import type { PatchNodeBody, PutNodeBody, RegServiceInput } from './schemas.ts';

/** How request bodies become stored node attributes (upstream stores absent options as omitted keys). */

type UserInputBody = NonNullable<PutNodeBody['userInput']>[number];

/** configState defaults to "active" on write, as upstream does. */
const storedRegisteredServices = (services: RegServiceInput[]) =>
  services.map((rs) => ({
    url: rs.url,
    numAgreements: rs.numAgreements,
    configState: rs.configState ?? 'active',
    policy: rs.policy,
    properties: rs.properties,
    ...(rs.version != null ? { version: rs.version } : {}),
  }));

const storedUserInput = (inputs: UserInputBody[]) =>
  inputs.map((ui) => ({
    serviceOrgid: ui.serviceOrgid,
    serviceUrl: ui.serviceUrl,
    ...(ui.serviceArch != null ? { serviceArch: ui.serviceArch } : {}),
    ...(ui.serviceVersionRange != null ? { serviceVersionRange: ui.serviceVersionRange } : {}),
    inputs: ui.inputs,
  }));

const NO_INTERVALS = { minInterval: 0, maxInterval: 0, intervalAdjustment: 0 };

/**
 * A PUT replaces everything it can: absent fields go back to their defaults, except token,
 * pattern and publicKey, which keep their values when absent.
 */
export function putChanges(body: PutNodeBody, tokenHash: string | undefined): NodeChanges {
  return {
    name: body.name,
    nodeType: body.nodeType ?? 'device',
    registeredServices: storedRegisteredServices(body.registeredServices ?? []),
    userInput: storedUserInput(body.userInput ?? []),
    msgEndPoint: body.msgEndPoint ?? '',
    softwareVersions: body.softwareVersions ?? {},
    arch: body.arch ?? '',
    heartbeatIntervals: body.heartbeatIntervals ?? NO_INTERVALS,
    clusterNamespace: body.clusterNamespace ?? '',
    isNamespaceScoped: body.isNamespaceScoped ?? false,
    ...(body.pattern != null ? { pattern: body.pattern } : {}),
    ...(body.publicKey != null ? { publicKey: body.publicKey } : {}),
    ...(tokenHash !== undefined ? { tokenHash } : {}),
  };
}

/** The attributes PATCH accepts, in upstream's order. */
export const PATCH_ATTRIBUTES = [
  'arch',
  'clusterNamespace',
  'isNamespaceScoped',
  'heartbeatIntervals',
  'msgEndPoint',
  'name',
  'nodeType',
  'pattern',
  'publicKey',
  'registeredServices',
  'softwareVersions',
  'token',
  'userInput',
] as const;
export type PatchAttribute = (typeof PATCH_ATTRIBUTES)[number];

/** The one attribute a PATCH sets, as stored (the token as its hash). */
export function patchChange(
  body: PatchNodeBody,
  attribute: PatchAttribute,
  tokenHash: string | undefined,
): NodeChanges {
  switch (attribute) {
    case 'token':
      return { tokenHash };
    case 'registeredServices':
      return { registeredServices: storedRegisteredServices(body.registeredServices ?? []) };
    case 'userInput':
      return { userInput: storedUserInput(body.userInput ?? []) };
    default:
      return { [attribute]: body[attribute] ?? undefined };
  }
}
