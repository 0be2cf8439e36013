/**
 * The node agent's entry point (`npm run agent`, or `node dist/agent.mjs` on a device): restarts
 * itself with the agent's V8 options (relaunch.ts), reads the environment, starts the local API
 * and the workers, and shuts down cleanly on SIGTERM/SIGINT.
 */
import { relaunchWithFlags } from './relaunch.ts';

// node:sqlite and process.execve are stable enough for us; their "experimental" warnings would
// only confuse operators.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name === 'ExperimentalWarning' && /SQLite|execve/.test(warning.message)) return;
  console.error(`${warning.name}: ${warning.message}`);
});

// Before anything else is loaded: the rest of the agent is imported only by the process that runs.
relaunchWithFlags();

async function main(): Promise<void> {
  const { createAgent } = await import('./agent.ts');
  const { ConfigError, loadConfig } = await import('./ground/config.ts');
  const { createLogger } = await import('#lib/json-logger');
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`agent: ${err.message}`);
    process.exit(2);
  }
  const log = createLogger(config.logLevel);
  const agent = await createAgent({ config, log });
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    await agent.stop();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  try {
    await agent.start();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const message =
      code === 'EADDRINUSE'
        ? `port ${config.port} is already in use: stop the other agent or set HZN_AGENT_PORT`
        : err instanceof Error
          ? err.message
          : String(err);
    log.error('agent could not start', { error: message });
    await agent.stop();
    process.exit(1);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
