/**
 * Settings read from a process's environment (the agent's and the agbot's), with one message
 * style: an unset or empty variable takes the default; a bad one fails with a message naming it.
 * `fail` makes the caller's own error (each process maps it to its exit code).
 */
export type Env = Record<string, string | undefined>;
type Fail = (message: string) => Error;

export function onOffSetting(env: Env, name: string, fallback: boolean, fail: Fail): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw !== 'on' && raw !== 'off') throw fail(`${name} must be on or off, not "${raw}"`);
  return raw === 'on';
}

export function integerSetting(
  env: Env,
  name: string,
  fallback: number,
  range: { min: number; max: number },
  fail: Fail,
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < range.min || value > range.max)
    throw fail(`${name} must be an integer from ${range.min} to ${range.max}, not "${raw}"`);
  return value;
}
