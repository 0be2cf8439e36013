import { serviceId, serviceUrlPart } from '#lib/catalog/service-id';
import { isValidVersion, versionInRange } from '#lib/catalog/version-range';
import { idFits, MAX_ID_BYTES, utf8Length } from '#lib/ids';
import { findServiceVersions } from '#tables/service/references';
import type { ServiceBody, ServiceRefInput } from './schemas.ts';

/** Upstream's service rules (docs/exchange-catalog.md#service-validation), in its order, with its messages. */

const SHARABLE_VALUES = ['exclusive', 'single', 'singleton', 'multiple'];
/** The userInput types anax accepts (`hzn` refuses others before publishing). */
const USER_INPUT_TYPES = ['string', 'int', 'float', 'boolean', 'bool', 'list of strings'];
/** Schemes java.net.URL knows: upstream's `documentation` check accepts these only. */
const URL_SCHEMES = ['http:', 'https:', 'ftp:', 'file:', 'jar:', 'mailto:'];

function isAbsoluteUrl(text: string): boolean {
  try {
    return URL_SCHEMES.includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

export const versionProblem = (version: string): string | undefined =>
  isValidVersion(version) ? undefined : `version '${version}' is not valid version format.`;

export const sharableProblem = (sharable: string): string | undefined =>
  SHARABLE_VALUES.includes(sharable) ? undefined : `invalid value '${sharable}' for the sharable attribute.`;

/** Step 7: each required service names a version or range, and this service's arch. */
export function requiredServicesProblem(refs: ServiceRefInput[], arch: string): string | undefined {
  for (const ref of refs) {
    if (ref.version == null && ref.versionRange == null)
      return `required service '${ref.url}' does not contain a versionRange`;
    if (ref.arch !== arch)
      return `required service '${ref.url}' has arch '${ref.arch}', which is different than this service's arch '${arch}'`;
  }
  return undefined;
}

/** Each userInput entry's `type`, when given, is one anax accepts. */
export function userInputProblem(entries: Record<string, string>[]): string | undefined {
  for (const [index, entry] of entries.entries()) {
    const type = entry.type;
    if (type !== undefined && !USER_INPUT_TYPES.includes(type))
      return `invalid input: body field 'userInput.${index}.type': '${type}' is not one of ${USER_INPUT_TYPES.join(', ')}`;
  }
  return undefined;
}

/** Checks of a POST/PUT body that need no data, in upstream's order; `pathId` only for PUT. */
export function serviceBodyProblem(body: ServiceBody, pathId?: string): string | undefined {
  if (body.documentation && !isAbsoluteUrl(body.documentation))
    return "the 'documentation' field is not valid URL format.";
  const badVersion = versionProblem(body.version);
  if (badVersion) return badVersion;
  if (body.arch === '') return 'arch can not be empty.';
  const id = serviceId(body.url, body.version, body.arch);
  if (pathId !== undefined && pathId !== id)
    return 'the service id specified in the URL does not match the url, version, and arch in the body.';
  if (utf8Length(id) > MAX_ID_BYTES)
    return `the service id formed from 'url', 'version' and 'arch' is longer than ${MAX_ID_BYTES} bytes`;
  return (
    sharableProblem(body.sharable) ??
    requiredServicesProblem(body.requiredServices ?? [], body.arch) ??
    userInputProblem(body.userInput ?? []) ??
    signatureProblem(body)
  );
}

function signatureProblem(body: ServiceBody): string | undefined {
  const unsigned =
    (body.deployment && !body.deploymentSignature) ||
    (body.clusterDeployment && !body.clusterDeploymentSignature);
  return unsigned ? 'this service definition is not signed.' : undefined;
}

/**
 * Step 9: the first required service that no stored service satisfies (same org, raw url and
 * arch, version inside the range; a plain version means "at least"), or undefined. Any org and
 * any visibility count, as upstream. One Query per required url.
 */
export async function missingRequiredService(refs: ServiceRefInput[]): Promise<ServiceRefInput | undefined> {
  for (const ref of refs) {
    const range = ref.versionRange ?? ref.version ?? '';
    // No stored service has an org or url this long (and a key this long cannot be queried).
    if (!idFits(ref.org) || utf8Length(serviceUrlPart(ref.url)) >= MAX_ID_BYTES) return ref;
    const stored = await findServiceVersions(ref.org, ref.url);
    if (!stored.some((s) => s.arch === ref.arch && versionInRange(s.version, range))) return ref;
  }
  return undefined;
}

export const missingRequiredMessage = (resource: string, verb: 'created' | 'updated', ref: ServiceRefInput) =>
  `service '${resource}' not ${verb}: the following required service does not exist in the exchange: ` +
  `org= ${ref.org}, url= ${ref.url}, version= ${ref.versionRange ?? ref.version ?? ''}, arch= ${ref.arch}`;
