// The stage parameters that CloudFormation wants as numbers (serverless.yml `params`,
// docs/operations.md "Stage parameters"): a parameter given on the command line
// (`--param="httpThrottleRate=1000"`) arrives as text, so each is read here, checked and made a
// number. A value out of range stops `serverless package` and `deploy` with a message naming it.

/** `name` as an integer from `min` to `max`, or a message saying what it must be. */
async function integer(resolveVariable, name, min, max) {
  const raw = await resolveVariable(`param:${name}`);
  const value = typeof raw === 'number' ? raw : Number(String(raw).trim());
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(
      `Stage parameter ${name} must be an integer from ${min} to ${max}, not ${JSON.stringify(raw)}`,
    );
  return value;
}

/** The retention periods CloudWatch Logs accepts (AWS::Logs::LogGroup RetentionInDays). */
const RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
];

module.exports.logRetentionDays = async ({ resolveVariable }) => {
  const days = await integer(resolveVariable, 'logRetentionDays', 1, 3653);
  if (!RETENTION_DAYS.includes(days))
    throw new Error(
      `Stage parameter logRetentionDays must be one of ${RETENTION_DAYS.join(', ')}, not ${days}`,
    );
  return days;
};

/** Requests a second, steady and in a burst, that API Gateway lets through a stage (the rest: 429). */
const throttle =
  (prefix) =>
  async ({ resolveVariable }) => ({
    ThrottlingRateLimit: await integer(resolveVariable, `${prefix}ThrottleRate`, 1, 100000),
    ThrottlingBurstLimit: await integer(resolveVariable, `${prefix}ThrottleBurst`, 1, 100000),
  });
module.exports.httpThrottle = throttle('http');
module.exports.websocketThrottle = throttle('websocket');

/** Reserved concurrency of a function: at least 1 (0 would stop it), at most an account's default. */
module.exports.concurrency = (resolveVariable, name) => integer(resolveVariable, name, 1, 1000);
