import { randomUUID } from 'node:crypto';
import type { ServiceConfigBody } from '../api/service.schema.ts';
import { buildAttribute } from '../attributes/attributes.ts';
import { type Attribute, loadAttributes, saveAttributes } from '../attributes/store.ts';
import type { UserInputEntry } from '../exchange/types.ts';
import { badInput, notRegistered } from '../ground/errors.ts';
import { isActive, loadNode } from '../node/record.ts';
import { ANY_VERSION, archMatches, isVersionRange, mergeUserInput } from '../node/userinput.ts';
import type { AgentContext } from '../runtime/context.ts';
import { writeThrough } from '../sync/write-through.ts';
import { loadServiceConfigs, type ServiceConfig, saveServiceConfigs } from './config-store.ts';
import { serviceEvent } from './events.ts';
import { registration } from './registered.ts';

/**
 * POST /service/config: configures one service (defaults: the node's org and arch, any version,
 * auto upgrade, no active upgrade). User input attributes become node user input (merged, so the
 * Exchange node gets them); other attributes are stored for this service; the service is added to
 * the Exchange node's registered services (active). Any service url is accepted: this Exchange has
 * no service definitions yet.
 */
export async function configureService(ctx: AgentContext, body: ServiceConfigBody) {
  const node = loadNode(ctx.store);
  if (!isActive(node)) throw notRegistered();
  const config = serviceConfig(ctx, body, node.organization);
  const target = {
    url: config.url,
    org: config.organization,
    version: config.versionRange,
    arch: config.arch,
  };
  serviceEvent(
    ctx,
    'info',
    'start_service_configuration',
    `Start service configuration with user input for ${target.org}/${target.url}.`,
    target,
  );
  try {
    const attributes = body.attributes.map((a, i) => ({
      ...buildAttribute('', a, `service.attributes[${i}].mappings`),
      service_specs: [{ url: config.url, organization: config.organization }],
    }));
    const userInput = attributes
      .filter((a) => a.type === 'UserInputAttributes')
      .map((a) => asUserInput(config, a));
    const others = attributes.filter((a) => a.type !== 'UserInputAttributes').map(withId);
    if (userInput.length > 0)
      await writeThrough(ctx, 'userInput', (_node, current) => mergeUserInput(current, userInput));
    await writeThrough(ctx, 'services', (_node, current) =>
      current.some((s) => s.url === `${config.organization}/${config.url}`)
        ? current
        : [...current, registration(config.organization, config.url)],
    );
    ctx.store.transaction(() => {
      saveServiceConfigs(ctx.store, [...loadServiceConfigs(ctx.store), config]);
      saveAttributes(ctx.store, [...loadAttributes(ctx.store), ...others]);
    });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    serviceEvent(
      ctx,
      'error',
      'error_service_configuration',
      `Error configuring service ${config.url}. ${reason}`,
      target,
    );
    throw err;
  }
  serviceEvent(
    ctx,
    'info',
    'service_configuration_complete',
    `Complete service configuration for ${target.org}/${target.url}.`,
    target,
  );
  return { ...config, attributes: body.attributes };
}

/** Defaults and upstream's checks; one configuration per service. */
function serviceConfig(ctx: AgentContext, body: ServiceConfigBody, nodeOrg: string): ServiceConfig {
  const organization = body.organization || nodeOrg;
  const arch = body.arch || ctx.host.arch;
  if (!archMatches(arch, ctx.host.arch))
    throw badInput(`arch ${arch} is not supported by this node.`, 'service.arch');
  const versionRange = body.versionRange || ANY_VERSION;
  if (!isVersionRange(versionRange))
    throw badInput(
      `versionRange ${versionRange} cannot be converted to a version expression`,
      'service.versionRange',
    );
  if (loadServiceConfigs(ctx.store).some((c) => c.url === body.url && c.organization === organization)) {
    throw badInput(
      `Duplicate registration for ${organization}/${body.url}. Only one registration per service is supported.`,
      'service.url',
    );
  }
  return {
    url: body.url,
    organization,
    name: body.name || body.url.split('/').filter(Boolean).at(-1) || body.url,
    arch: ctx.host.arch,
    versionRange,
    auto_upgrade: body.auto_upgrade,
    active_upgrade: body.active_upgrade,
  };
}

function asUserInput(config: ServiceConfig, attribute: Attribute): UserInputEntry {
  return {
    serviceOrgid: config.organization,
    serviceUrl: config.url,
    serviceArch: config.arch,
    serviceVersionRange: config.versionRange,
    inputs: Object.entries(attribute.mappings).map(([name, value]) => ({ name, value })),
  };
}

const withId = (attribute: Attribute): Attribute => ({ ...attribute, id: randomUUID() });
