/**
 * An error answered to the local API caller as `{"error": ..., "input": ...}` with its status.
 * `input` names the field (or the thing) that was wrong, like upstream's agent does.
 */
export class AgentError extends Error {
  readonly status: number;
  readonly input: string | undefined;

  constructor(status: number, error: string, input?: string) {
    super(error);
    this.status = status;
    this.input = input;
  }

  body(): { error: string; input?: string } {
    return this.input === undefined ? { error: this.message } : { error: this.message, input: this.input };
  }
}

export const badInput = (error: string, input: string) => new AgentError(400, error, input);

/** Local writes that need a registered node answer this when there is none (upstream's text). */
export const notRegistered = () =>
  new AgentError(
    404,
    "Exchange registration not recorded. Complete account and node registration with an exchange and then record node registration using this API's /node path.",
    'node',
  );

/** The Exchange could not be reached (or answered 5xx) while the request needed it now. */
export const exchangeUnavailable = (detail: string) =>
  new AgentError(503, `The Exchange is not reachable now, try again later: ${detail}`, 'exchange');

/** The Exchange answered something this agent did not expect. */
export const exchangeFailed = (detail: string) =>
  new AgentError(502, `The Exchange refused the request: ${detail}`, 'exchange');
