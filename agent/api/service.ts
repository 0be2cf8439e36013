import { loadRegisteredServices } from '../node/local.ts';
import { setServiceConfigState } from '../services/configstate.ts';
import { configureService } from '../services/configure.ts';
import { configStateView } from '../services/registered.ts';
import { serviceConfigView, servicePolicyView, serviceView } from '../services/views.ts';
import { requireNodeRecord } from './gate.ts';
import type { RoutesPlugin } from './plugin.ts';
import { configStateBody, serviceConfigBody } from './service.schema.ts';
import { parseBody } from './validation.ts';

/** /service, /service/config, /service/configstate, /service/policy (424 until a node is recorded). */
export const serviceRoutes: RoutesPlugin = async (app, { ctx }) => {
  requireNodeRecord(app, ctx);

  app.get('/service', async () => serviceView(ctx));

  app.get('/service/config', async () => ({ config: serviceConfigView(ctx.store) }));

  // 200 (upstream answers 201; docs/agent.md#deviations-from-upstreams-agent) with the service as configured.
  app.post('/service/config', async (req) =>
    configureService(ctx, parseBody(serviceConfigBody, req.body, 'service', 'service')),
  );

  app.get('/service/configstate', async () => configStateView(loadRegisteredServices(ctx.store)));

  app.post('/service/configstate', async (req) =>
    setServiceConfigState(ctx, parseBody(configStateBody, req.body, '', 'service/configstate')),
  );

  app.get('/service/policy', async () => servicePolicyView(ctx.store));
};
