/**
 * A stage that refuses (bad manifest, hash, signature...): the job ends with this status and
 * message. A `transient` one (the object store unreachable or failing, the stage's deadline) is
 * tried again later, up to the download attempts (job.ts).
 */
export class StageFailure extends Error {
  constructor(
    readonly status: 'failed' | 'precheck failed' | 'download failed',
    message: string,
    readonly transient = false,
  ) {
    super(message);
  }
}

/** Whether trying the download again later may work: a network error, a 5xx or 429, a deadline. */
export const isTransient = (err: unknown): boolean =>
  err instanceof StageFailure ? err.transient : err instanceof TypeError; // fetch's network errors
