import type { Severity } from '../events/eventlog.ts';
import { ANY_VERSION } from '../node/userinput.ts';
import type { AgentContext } from '../runtime/context.ts';

/** Service events carry upstream's `service` source (no instance or agreement yet). */
export function serviceEvent(
  ctx: AgentContext,
  severity: Severity,
  code: string,
  message: string,
  service: { url: string; org: string; version?: string; arch?: string },
): void {
  ctx.events.add(severity, code, message, 'service', {
    instance_id: '',
    service_url: service.url,
    organization: service.org,
    version: service.version || ANY_VERSION,
    arch: service.arch ?? '',
    agreement_id: [],
  });
}
