import type { FastifyInstance } from 'fastify';
import { createLogger, type Logger } from '#lib/json-logger';
import { buildApp } from './app.ts';
import { createEventLog } from './events/eventlog.ts';
import { createExchangeClient } from './exchange/client.ts';
import type { AgentConfig } from './ground/config.ts';
import { Mutex } from './ground/mutex.ts';
import { resumeUnregistration } from './node/unregister.ts';
import { createNodeProtocol } from './protocol/node-protocol.ts';
import type { ProtocolTimings } from './protocol/protocol.ts';
import { type AgentContext, NO_SIGNALS, newRuntime } from './runtime/context.ts';
import { detectHost, type HostFacts } from './runtime/host.ts';
import { WorkerRegistry } from './runtime/worker-registry.ts';
import { createStatusReporter, type StatusReporter } from './status-report/reporter.ts';
import { Store } from './store/store.ts';
import { startWorkers, type Workers } from './workers/workers.ts';
import type { ExitWatch } from './workloads/exit-watch.ts';

interface AgentOptions {
  config: AgentConfig;
  log?: Logger;
  /** Clock (ms); tests may pin it. */
  now?: () => number;
  /** Override measured host facts (tests). */
  host?: Partial<HostFacts>;
  /** Override the agreement protocol's governance and check intervals (tests). */
  protocolTimings?: Partial<ProtocolTimings>;
}

export interface Agent {
  ctx: AgentContext;
  app: FastifyInstance;
  /** Starts the workers and listens on config.host:config.port; resolves to the bound port. */
  start(): Promise<number>;
  /** Stops workers, the server and the store; safe to call twice. */
  stop(): Promise<void>;
}

/** Wires one agent: store, Exchange client, event log, routes and (on start) workers. */
export async function createAgent(options: AgentOptions): Promise<Agent> {
  const { config } = options;
  const log = options.log ?? createLogger(config.logLevel);
  const now = options.now ?? Date.now;
  const store = Store.open(config.dataDir);
  let reporter: StatusReporter | undefined;
  const ctx: AgentContext = {
    config,
    store,
    exchange: createExchangeClient({ baseUrl: config.exchangeUrl, timeoutMs: config.requestTimeoutMs }),
    events: createEventLog(store, now, (event) => reporter?.noticed(event)),
    host: { ...detectHost(store), ...options.host },
    log,
    workers: new WorkerRegistry(now),
    now,
    writes: new Mutex(),
    runtime: newRuntime(),
    wake: () => {},
    pollNow: () => {},
    signals: NO_SIGNALS,
  };
  const protocol = createNodeProtocol(ctx, options.protocolTimings);
  ctx.protocol = protocol;
  reporter = createStatusReporter(ctx, () => protocol.parts.runner);
  ctx.statusReport = reporter;
  const app = await buildApp(ctx);
  let workers: Workers | undefined;
  let exits: ExitWatch | undefined;
  let stopped: Promise<void> | undefined;

  return {
    ctx,
    app,
    async start() {
      workers = startWorkers(ctx);
      protocol.start();
      reporter?.start();
      if (config.statusReport !== false)
        exits = protocol.watchExits((containerId) => reporter?.containerExited(containerId));
      resumeUnregistration(ctx)?.catch((err) => log.error('unregistration failed', { error: String(err) }));
      await app.listen({ host: config.host, port: config.port });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      log.info('agent listening', {
        url: `http://${config.host}:${port}`,
        exchange: config.exchangeUrl,
        dataDir: config.dataDir,
      });
      return port;
    },
    stop() {
      stopped ??= (async () => {
        await workers?.stop();
        exits?.stop();
        await reporter?.stop();
        await protocol.stop();
        await app.close();
        // An unregistration still running finishes (or fails) before the store closes.
        await ctx.runtime.unconfiguring?.catch(() => {});
        await ctx.writes.run(async () => {});
        ctx.exchange.close();
        store.close();
      })();
      return stopped;
    },
  };
}
