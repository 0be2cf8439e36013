/** A stage that refuses (bad manifest, hash, signature...): the job ends with this status and message. */
export class StageFailure extends Error {
  constructor(
    readonly status: 'failed' | 'precheck failed' | 'download failed',
    message: string,
  ) {
    super(message);
  }
}
