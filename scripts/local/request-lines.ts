/**
 * serverless-offline's per-request output: two blank lines, `ANY /v1/... (λ: name)`, then
 * `(λ: name) RequestId: … Duration: …` (also for stream and WebSocket invocations), and
 * `received connection` per WebSocket client, `Successfully invoked scheduled function: [name]`
 * per scheduled invocation (the in-stack agbot's, every minute). `npm start` hides them unless
 * EXCHANGE_LOG_REQUESTS=1, so the banner, warnings and errors stay on screen.
 */
const ROUTE = /^[A-Z]+ \/\S* \(λ: [^)]+\)$/;
const INVOCATION = /^\(λ: [^)]+\) RequestId: /;
const CONNECTION = /^received connection$/;
const SCHEDULED = /^Successfully invoked scheduled function: \[[^\]]+\]$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes are what is stripped.
const COLOURS = /\u001b\[[0-9;]*m/g;

export function isRequestLine(line: string): boolean {
  const plain = line.replace(COLOURS, '').trim();
  return [ROUTE, INVOCATION, CONNECTION, SCHEDULED].some((line) => line.test(plain)) || plain === '';
}

export const logsRequests = (env: NodeJS.ProcessEnv): boolean => env.EXCHANGE_LOG_REQUESTS === '1';
