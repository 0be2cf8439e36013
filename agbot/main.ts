/**
 * The agreement bot's entry point (`npm run agbot`, or `node dist/agbot.mjs`): reads the
 * environment, starts the agbot and stops it cleanly on SIGTERM/SIGINT.
 */
import { createLogger } from '#lib/json-logger';
import { createAgbot } from './agbot.ts';
import { type AgbotConfig, AgbotConfigError, loadAgbotConfig } from './config.ts';

// node:sqlite is stable enough for us; its "experimental" warning would only confuse operators.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name === 'ExperimentalWarning' && /SQLite/.test(warning.message)) return;
  console.error(`${warning.name}: ${warning.message}`);
});

let config: AgbotConfig;
try {
  config = loadAgbotConfig();
} catch (error) {
  if (!(error instanceof AgbotConfigError)) throw error;
  console.error(`agbot: ${error.message}`);
  process.exit(2);
}
const log = createLogger(config.logLevel);
const agbot = createAgbot({ config, log });
let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  log.info('shutting down', { signal });
  await agbot.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
try {
  await agbot.start();
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  log.error('agbot could not start', {
    error:
      code === 'EADDRINUSE'
        ? `port ${config.port} is already in use: set HZN_AGBOT_PORT`
        : (error as Error).message,
  });
  await agbot.stop();
  process.exit(1);
}
