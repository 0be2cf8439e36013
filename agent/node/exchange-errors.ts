import { ExchangeHttpError, ExchangeUnavailableError } from '../exchange/client.ts';
import { AgentError, badInput, exchangeFailed, exchangeUnavailable } from '../ground/errors.ts';

/**
 * Turns a failed Exchange call made on behalf of a request into the local API's answer:
 * unreachable → 503, credentials refused → 400 on the token, malformed → 400, anything else → 502.
 */
export function asAgentError(err: unknown, who: string): Error {
  if (err instanceof AgentError) return err;
  if (err instanceof ExchangeUnavailableError) return exchangeUnavailable(err.message);
  if (err instanceof ExchangeHttpError && err.status === 401) {
    return badInput(
      `The Exchange did not accept the credentials of node ${who}: the node does not exist there or the token is wrong.`,
      'device.token',
    );
  }
  // The Exchange found the request malformed: that is the caller's input, not a gateway failure.
  if (err instanceof ExchangeHttpError && err.status === 400)
    return badInput(`The Exchange refused node ${who}: ${err.message}`, 'device');
  if (err instanceof ExchangeHttpError) return exchangeFailed(err.message);
  return err instanceof Error ? err : new Error(String(err));
}

/** "x.y.z" → comparable numbers; undefined when it is not a version. */
function versionNumbers(version: string): number[] | undefined {
  if (!/^\d+(\.\d+)*$/.test(version)) return undefined;
  return version.split('.').map(Number);
}

export function versionAtLeast(version: string, minimum: string): boolean {
  const have = versionNumbers(version);
  const need = versionNumbers(minimum) ?? [];
  if (!have) return false;
  for (let i = 0; i < Math.max(have.length, need.length); i++) {
    const a = have[i] ?? 0;
    const b = need[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}
