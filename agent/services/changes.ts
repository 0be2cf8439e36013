import { canonical } from '../attributes/attributes.ts';
import type { AgentContext } from '../context.ts';
import type { ExchangeNode } from '../exchange/types.ts';
import { canApply } from '../node/changes.ts';
import { loadRegisteredServices, SEEN, saveRegisteredServices } from '../node/local.ts';
import { nodeSource } from '../node/record.ts';
import { normalizeRegistered } from './registered.ts';

/**
 * Poll step: the Exchange node's registered services (edited there, e.g. a state changed by an
 * admin) replace the local copy, unless a local change is pending or was made since the poll began.
 */
export function applyServices(
  ctx: AgentContext,
  id: string,
  remote: ExchangeNode | undefined,
  revision: number,
): void {
  const node = canApply(ctx, id, 'services', revision);
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
}
