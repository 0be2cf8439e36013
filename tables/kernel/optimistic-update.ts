import { sleep } from './sleep.ts';

/** What a write answers when its condition found the record changed since it was read. */
export const CONFLICT = Symbol('conflict');
export type Conflict = typeof CONFLICT;

/** Writes tried (the first included) before the update gives up. */
export const UPDATE_ATTEMPTS = 6;
/** The pause before attempt `attempt` + 1: jittered, growing by up to 10 ms an attempt. */
const rereadBackoff = (attempt: number): number => Math.random() * 10 * attempt;

interface OptimisticUpdate<R, T> {
  /** Computes the new state from `current` and writes it on the condition that the record is still as read. */
  write: (current: R) => Promise<T | Conflict>;
  /** Reads the record again (with whatever checks the first read made, since they may have changed). */
  reread: () => Promise<R>;
  attempts?: number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Read, compute, conditional write; on a conflict, pause, read again and retry. Starts from the
 * record as `first` read (often by the request's authorization), so an uncontended update costs
 * no extra read. Resolves what `write` answered, or CONFLICT when every attempt met a conflict.
 */
export async function optimisticUpdate<R, T>(
  first: R,
  update: OptimisticUpdate<R, T>,
): Promise<T | Conflict> {
  const attempts = update.attempts ?? UPDATE_ATTEMPTS;
  const pause = update.sleep ?? sleep;
  let current = first;
  for (let attempt = 1; ; attempt++) {
    const result = await update.write(current);
    if (result !== CONFLICT) return result;
    if (attempt >= attempts) return CONFLICT;
    await pause(rereadBackoff(attempt));
    current = await update.reread();
  }
}
