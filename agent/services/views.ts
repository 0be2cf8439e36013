import { type Attribute, appliesTo, loadAttributes } from '../attributes/store.ts';
import { attributeInConfig } from '../attributes/view.ts';
import { loadUserInput } from '../node/local.ts';
import type { AgentContext } from '../runtime/context.ts';
import type { Store } from '../store/store.ts';
import { loadServiceConfigs, type ServiceConfig } from './config-store.ts';
import { workloadViews } from './instances.ts';

/** One `config` entry: the service and every attribute that applies to it (secrets masked). */
function configEntry(config: ServiceConfig, attributes: Attribute[], store: Store) {
  const { organization: org, url } = config;
  const userInput = loadUserInput(store)
    .filter((entry) => entry.serviceOrgid === org && entry.serviceUrl === url)
    .map((entry) => ({
      meta: {
        id: '',
        type: 'UserInputAttributes',
        label: 'User input variables',
        host_only: false,
        publishable: false,
      },
      service_specs: [{ url, organization: org }],
      mappings: Object.fromEntries(entry.inputs.map((input) => [input.name, input.value])),
    }));
  return {
    sensor_url: url,
    sensor_org: org,
    sensor_version: config.versionRange,
    auto_upgrade: config.auto_upgrade,
    active_upgrade: config.active_upgrade,
    attributes: [...attributes.filter((a) => appliesTo(a, org, url)).map(attributeInConfig), ...userInput],
  };
}

export function serviceConfigView(store: Store) {
  const attributes = loadAttributes(store);
  return loadServiceConfigs(store).map((config) => configEntry(config, attributes, store));
}

/** GET /service: the configured services, and the definitions and instances of the agreements. */
export async function serviceView(ctx: AgentContext) {
  return { config: serviceConfigView(ctx.store), ...(await workloadViews(ctx)) };
}

/** GET /service/policy: the policy generated for each configured service, by name. */
export function servicePolicyView(store: Store) {
  const attributes = loadAttributes(store);
  const policies: [string, unknown][] = [];
  for (const config of loadServiceConfigs(store)) {
    const { organization: org, url, arch } = config;
    const name = `${org}/${url}`;
    const protocols = attributes
      .filter((a) => a.type === 'AgreementProtocolAttributes' && appliesTo(a, org, url))
      .flatMap((a) => (a.mappings.protocols as Record<string, unknown>[]).flatMap((p) => Object.keys(p)));
    policies.push([
      name,
      {
        header: { name, version: '2.0' },
        apiSpec: [
          { specRef: url, organization: org, version: config.versionRange, exclusiveAccess: true, arch },
        ],
        agreementProtocols: (protocols.length > 0 ? [...new Set(protocols)] : ['Basic']).map((p) => ({
          name: p,
          protocolVersion: 1,
        })),
        properties: [],
      },
    ]);
  }
  return Object.fromEntries(policies);
}
