import type { Store } from '../store/store.ts';

/** One service configured through POST /service/config (its attributes live in the attribute store). */
export interface ServiceConfig {
  url: string;
  organization: string;
  name: string;
  arch: string;
  versionRange: string;
  auto_upgrade: boolean;
  active_upgrade: boolean;
}

export const SERVICE_CONFIG_KEY = 'services.config';

export const loadServiceConfigs = (store: Store): ServiceConfig[] =>
  store.get<ServiceConfig[]>(SERVICE_CONFIG_KEY) ?? [];

export function saveServiceConfigs(store: Store, configs: ServiceConfig[]): void {
  store.set(SERVICE_CONFIG_KEY, configs);
}
