import type { RegisteredService } from '../exchange/types.ts';
import { badInput } from '../ground/errors.ts';
import { loadRegisteredServices } from '../node/local.ts';
import type { AgentContext } from '../runtime/context.ts';
import { writeThrough } from '../sync/write-through.ts';
import { serviceEvent } from './events.ts';
import { splitServiceUrl } from './registered.ts';

interface ConfigStateChange {
  url: string;
  org: string;
  version: string;
  state: 'active' | 'suspended' | undefined;
}

const VERSION = /^\d+(\.\d+){0,2}$/;

/**
 * POST /service/configstate: sets the state of the registered services selected by url and org
 * (both empty: all of them; only org: that org's) and writes the Exchange node's registered
 * services (offline: kept and pushed later). No registered service selected → 400.
 */
export async function setServiceConfigState(ctx: AgentContext, change: ConfigStateChange) {
  const { url, org, version, state } = change;
  if (!state) throw badInput('configState must be active or suspended', 'configState');
  if (url && !org) throw badInput('org must be specified when url is', 'org');
  if (version && !(url && org)) throw badInput('url and org must be specified with a version', 'org,url');
  if (version && !VERSION.test(version))
    throw badInput(`version ${version} is not a valid version`, 'version');
  const target = url
    ? `${org}/${url}`
    : org
      ? `all registered services under the organization ${org}`
      : 'all registered services';
  const source = { url, org, version };
  serviceEvent(
    ctx,
    'info',
    'start_changing_service_configuration_state',
    `Start changing service configuration state to ${state} for ${target} for the node.`,
    source,
  );
  const selected = (s: RegisteredService) => {
    const parts = splitServiceUrl(s.url);
    return (!org || parts.org === org) && (!url || parts.url === url) && (!version || s.version === version);
  };
  try {
    if (!loadRegisteredServices(ctx.store).some(selected)) {
      const input = version ? 'url, org, version' : url ? 'url, org' : org ? 'org' : 'url, org';
      throw badInput(`No changes made. No registered service found for ${target}.`, input);
    }
    await writeThrough(ctx, 'services', (_node, current) =>
      current.map((s) => (selected(s) ? { ...s, configState: state } : s)),
    );
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    serviceEvent(
      ctx,
      'error',
      'error_changing_service_configuration_state',
      `Error changing service configstate ${state}, error ${reason}`,
      source,
    );
    throw err;
  }
  serviceEvent(
    ctx,
    'info',
    'changing_service_configuration_state_complete',
    `Complete changing service configuration state to ${state} for ${target} for the node.`,
    source,
  );
  return { url, org, configState: state };
}
