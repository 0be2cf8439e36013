import { ConstraintError, parseConstraint } from '#lib/policy/constraints';
import { EXIT, fatal } from '../../errors.ts';

type Json = Record<string, unknown>;

/**
 * A deployment-policy file as upstream's CLI re-marshals it (businesspolicy/business_policy.go;
 * docs/hzn-behaviour.md#exchange-commands): known fields only, no `owner`, `priority`/`upgradePolicy`/`nodeHealth` always
 * present; validated with upstream's rules, each failure exit 1.
 */
export function deploymentPolicyBody(file: Json, allowNoConstraints: boolean): Json {
  const service = (file.service ?? {}) as Json;
  if (!nonEmptyString(service.name) || !nonEmptyString(service.org))
    throw fatal(EXIT.CLI_INPUT_ERROR, 'Invalid deployment policy: Name, or Org is empty string.');
  const versions = service.serviceVersions;
  if (!Array.isArray(versions) || versions.length === 0)
    throw fatal(EXIT.CLI_INPUT_ERROR, 'Invalid deployment policy: the serviceVersions array is empty.');
  const serviceVersions = (versions as Json[]).map((v) => {
    const priority = (v.priority ?? {}) as Json;
    const value = Number(priority.priority_value ?? 0);
    const others = Number(priority.retries ?? 0) !== 0 || Number(priority.retry_durations ?? 0) !== 0;
    if (value !== 0 && (!Number(priority.retries) || !Number(priority.retry_durations)))
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        `Invalid deployment policy: version ${String(v.version)} has a priority_value but no retries or retry_durations.`,
      );
    if (value === 0 && others)
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        `Invalid deployment policy: version ${String(v.version)} has retries or retry_durations without a priority_value.`,
      );
    return { version: v.version, priority, upgradePolicy: v.upgradePolicy ?? {} };
  });
  const constraints = constraintsOf(file.constraints);
  if (constraints.length === 0 && !allowNoConstraints)
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      'The deployment policy has no constraints which might result in the service being deployed to all nodes. Please specify --no-constraints to confirm that this is acceptable.',
    );
  return {
    label: typeof file.label === 'string' ? file.label : '',
    description: typeof file.description === 'string' ? file.description : '',
    service: {
      name: service.name,
      org: service.org,
      arch: typeof service.arch === 'string' ? service.arch : '',
      ...(service.clusterNamespace !== undefined ? { clusterNamespace: service.clusterNamespace } : {}),
      serviceVersions,
      nodeHealth: service.nodeHealth ?? {},
    },
    ...(file.properties !== undefined ? { properties: propertiesOf(file.properties) } : {}),
    ...(file.constraints !== undefined ? { constraints } : {}),
    ...(file.userInput !== undefined ? { userInput: file.userInput } : {}),
    ...(file.secretBinding !== undefined ? { secretBinding: file.secretBinding } : {}),
  };
}

/** `{name, type?, value}` entries; `openhorizon.allowPrivileged` must be a boolean. */
export function propertiesOf(value: unknown): Json[] {
  if (value === null) return [];
  if (!Array.isArray(value))
    throw fatal(EXIT.CLI_INPUT_ERROR, 'Invalid policy: properties must be an array.');
  return (value as Json[]).map((p) => {
    if (!nonEmptyString(p?.name))
      throw fatal(EXIT.CLI_INPUT_ERROR, 'Invalid policy: a property has no name.');
    if (p.name === 'openhorizon.allowPrivileged' && typeof p.value !== 'boolean')
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        'Invalid policy: the property openhorizon.allowPrivileged must be a boolean.',
      );
    return { name: p.name, ...(p.type !== undefined ? { type: p.type } : {}), value: p.value };
  });
}

/** Each constraint must parse with the shared constraint grammar. */
export function constraintsOf(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((c) => typeof c !== 'string'))
    throw fatal(EXIT.CLI_INPUT_ERROR, 'Invalid policy: constraints must be an array of strings.');
  for (const c of value as string[]) {
    try {
      parseConstraint(c);
    } catch (err) {
      if (err instanceof ConstraintError)
        throw fatal(EXIT.CLI_INPUT_ERROR, `Invalid policy: constraint ${c} is not valid: ${err.message}`);
      throw err;
    }
  }
  return value as string[];
}

const nonEmptyString = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** updatepolicy sends one attribute: the first present in upstream's order. */
export function patchAttribute(file: Json): Json {
  for (const key of ['service', 'properties', 'constraints', 'userInput', 'secretBinding']) {
    if (file[key] === undefined) continue;
    if (key === 'properties') return { properties: propertiesOf(file.properties) };
    if (key === 'constraints') return { constraints: constraintsOf(file.constraints) };
    return { [key]: file[key] };
  }
  const rest: Json = {};
  if (file.label !== undefined) rest.label = file.label;
  if (file.description !== undefined) rest.description = file.description;
  if (Object.keys(rest).length > 0) return rest;
  throw fatal(
    EXIT.CLI_INPUT_ERROR,
    'Failed to find a valid attribute to update in the input file. Supported attributes are: label, description, service, properties, constraints, userInput, secretBinding.',
  );
}
