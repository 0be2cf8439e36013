import { canonical } from '../attributes/attributes.ts';
import type { ExchangeNode, RegisteredService } from '../exchange/types.ts';
import { loadRegisteredServices, SEEN, saveRegisteredServices } from '../node/local.ts';
import { nodeSource } from '../node/record.ts';
import { normalizeRegistered } from '../services/registered.ts';
import { canApply } from './document.ts';
import { nodeDocument } from './node-document.ts';

/**
 * Service configuration states: the Exchange node's `registeredServices`. Edited there (e.g. a
 * state changed by an admin) they replace the local copy at the next poll.
 */
export const servicesDocument = nodeDocument<RegisteredService[], ExchangeNode | undefined>({
  kind: 'services',
  worker: 'ServiceConfigStateSync',
  resources: ['node', 'services_configstate'],
  what: 'service configuration state',
  refusedCode: 'error_changing_service_configuration_state',
  load: loadRegisteredServices,
  save: saveRegisteredServices,
  push: (ctx, creds, value) => ctx.exchange.patchNode(creds, 'registeredServices', value),
  pull: (round) => round.exchangeNode(),
  apply(round, remote) {
    const { ctx } = round;
    const node = canApply(round, 'services');
    if (!node || !remote) return;
    if (remote.lastUpdated !== undefined && remote.lastUpdated === ctx.store.get(SEEN.services)) return;
    const services = normalizeRegistered(remote.registeredServices);
    ctx.store.transaction(() => {
      if (canonical(services) !== canonical(loadRegisteredServices(ctx.store))) {
        saveRegisteredServices(ctx.store, services);
        ctx.runtime.revision.services++;
        const states = services.map((s) => `${s.url} ${s.configState}`).join(', ');
        ctx.events.node(
          'info',
          'changing_service_configuration_state_complete',
          `Service configuration states changed in the Exchange: ${states || 'no registered services'}.`,
          nodeSource(node),
        );
      }
      ctx.store.set(SEEN.services, remote.lastUpdated ?? null);
    });
  },
});
