/**
 * Tells the node status worker at once when a workload container exits, instead of at its next
 * periodic look (docs/agent.md, "Status reported to the Exchange"): one streaming request to the
 * local engine's events API (`die` events of containers), open for as long as the agent runs.
 * Podman's events API matches no label filter, so the agreement label is matched here. When the
 * engine drops the stream (restarted, socket gone), it is opened again with backoff, and the
 * worker is told once it is back: an exit in the gap was not seen.
 */
import type Docker from 'dockerode';
import type { Logger } from '#lib/json-logger';
import { backoffDelay } from '../runtime/backoff.ts';
import { LABELS } from './container-spec.ts';

interface EngineEvent {
  Type?: string;
  Action?: string;
  id?: string;
  Actor?: { ID?: string; Attributes?: Record<string, string> };
}

export interface ExitWatch {
  /** Resolves once the stream is open (the first time); tests wait on it before an exit. */
  readonly opened: Promise<void>;
  stop(): void;
}

interface ExitWatchOptions {
  log: Logger;
  retryMinMs: number;
  retryMaxMs: number;
}

/** The workload container an engine event says exited, or undefined for any other event. */
export function exitedWorkload(event: EngineEvent): string | undefined {
  if (event.Type !== 'container' || event.Action !== 'die') return undefined;
  const attributes = event.Actor?.Attributes ?? {};
  if (!(LABELS.agreementId in attributes)) return undefined;
  return event.Actor?.ID ?? event.id;
}

/**
 * Calls `onExit(containerId)` for each workload container's exit, and `onExit()` after the stream
 * was reopened. `docker` must have no request timeout: the stream is idle while nothing exits.
 */
export function watchExits(
  docker: Docker,
  onExit: (containerId?: string) => void,
  options: ExitWatchOptions,
): ExitWatch {
  let stopped = false;
  let failures = 0;
  let stream: NodeJS.ReadableStream | undefined;
  let retry: NodeJS.Timeout | undefined;
  let markOpened: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    markOpened = resolve;
  });

  const reopenLater = (reason: string) => {
    stream = undefined;
    if (stopped) return;
    failures++;
    const delay = backoffDelay(failures, options.retryMinMs, options.retryMaxMs);
    options.log.warn('container events stream closed; reopening', { reason, delayMs: delay });
    retry = setTimeout(open, delay);
  };

  async function open(): Promise<void> {
    let events: NodeJS.ReadableStream;
    try {
      events = (await docker.getEvents({
        // Podman matches its own name of the event (`died`), though it reports it as Docker's `die`.
        filters: { type: ['container'], event: ['die', 'died'] },
      })) as NodeJS.ReadableStream;
    } catch (error) {
      reopenLater((error as Error).message);
      return;
    }
    if (stopped) return destroy(events);
    stream = events;
    const reopened = failures > 0;
    failures = 0;
    markOpened();
    if (reopened) onExit();
    let partial = '';
    events.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const id = line.trim() ? exitedWorkload(parse(line)) : undefined;
        if (id) onExit(id);
      }
    });
    let closed = false;
    const close = (reason: string) => {
      if (closed) return;
      closed = true;
      if (stream === events) reopenLater(reason);
    };
    events.on('end', () => close('ended by the engine'));
    events.on('error', (error: Error) => close(error.message));
  }

  void open();
  return {
    opened,
    stop() {
      stopped = true;
      clearTimeout(retry);
      if (stream) destroy(stream);
      stream = undefined;
    },
  };
}

function parse(line: string): EngineEvent {
  try {
    return JSON.parse(line) as EngineEvent;
  } catch {
    return {};
  }
}

function destroy(stream: NodeJS.ReadableStream): void {
  (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
}
