import type { Logger } from '#lib/json-logger';
import { ExchangeUnavailableError } from '../exchange/client.ts';
import { backoffDelay } from './backoff.ts';
import type { WorkerRegistry } from './worker-registry.ts';

interface LoopOptions {
  name: string;
  registry: WorkerRegistry;
  log: Logger;
  /** Pause between rounds that went well. */
  intervalMs: number;
  /** When given, asked after each round that went well for the pause instead of `intervalMs`. */
  nextDelayMs?: () => number;
  retryMinMs: number;
  retryMaxMs: number;
  /** One round; throwing means "failed, back off". */
  tick: () => Promise<void>;
}

export interface Loop {
  /** Run a round now (or right after the current one). */
  wake(): void;
  /** Let the current round finish, then stop. */
  stop(): Promise<void>;
}

/** A worker: runs `tick` forever, every `intervalMs`, backing off after failures. */
export function startLoop(options: LoopOptions): Loop {
  const { name, registry, log } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopping = false;
  let failures = 0;
  let initialized = false;

  const schedule = (delayMs: number) => {
    clearTimeout(timer);
    timer = setTimeout(round, delayMs);
  };

  async function round(): Promise<void> {
    timer = undefined;
    if (stopping || running) return;
    running = (async () => {
      try {
        await options.tick();
        if (failures > 0) log.info('worker recovered', { worker: name, after: failures });
        failures = 0;
      } catch (err) {
        failures++;
        const reason = err instanceof Error ? err.message : String(err);
        if (err instanceof ExchangeUnavailableError)
          log.warn('exchange unreachable', { worker: name, failures, reason });
        else log.error('worker round failed', { worker: name, failures, reason });
      }
      if (!initialized) {
        initialized = true;
        registry.set(name, 'initialized');
      }
      registry.roundDone(name);
    })();
    await running;
    running = undefined;
    if (stopping) return;
    if (again) {
      again = false;
      schedule(0);
    } else {
      schedule(
        failures
          ? backoffDelay(failures, options.retryMinMs, options.retryMaxMs)
          : (options.nextDelayMs?.() ?? options.intervalMs),
      );
    }
  }

  registry.set(name, 'started');
  schedule(0);

  return {
    wake() {
      if (stopping) return;
      if (running) again = true;
      else schedule(0);
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      registry.set(name, 'terminating');
      clearTimeout(timer);
      await running;
      registry.set(name, 'terminated');
    },
  };
}
