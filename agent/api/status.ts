import { AGENT_VERSION, PREFERRED_EXCHANGE_VERSION, REQUIRED_EXCHANGE_VERSION } from '../ground/version.ts';
import type { AgentContext } from '../runtime/context.ts';
import type { RoutesPlugin } from './plugin.ts';

/** How long GET /status waits for the Exchange before calling it unreachable. */
const LIVE_CHECK_MS = 1500;

export const statusRoutes: RoutesPlugin = async (app, { ctx }) => {
  app.get('/status', async () => {
    const reachable = await checkExchange(ctx);
    return {
      configuration: {
        exchange_api: `${ctx.exchange.baseUrl}/`,
        exchange_version: ctx.runtime.exchangeVersion ?? '',
        required_minimum_exchange_version: REQUIRED_EXCHANGE_VERSION,
        preferred_exchange_version: PREFERRED_EXCHANGE_VERSION,
        // The object store of agent upgrades: hzn nm and hzn exchange nmp ask it here.
        mms_api: ctx.config.cssUrl,
        architecture: ctx.host.arch,
        horizon_version: AGENT_VERSION,
        platform_version: AGENT_VERSION,
      },
      connectivity: { [`${ctx.exchange.baseUrl}/`]: reachable },
      liveHealth: null,
    };
  });

  app.get('/status/workers', async () => ctx.workers.snapshot());
};

/** Asks the Exchange for its version now (short timeout): answers whether it is reachable. */
async function checkExchange(ctx: AgentContext): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), LIVE_CHECK_MS);
  });
  try {
    ctx.runtime.exchangeVersion = await Promise.race([ctx.exchange.version(), timeout]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
