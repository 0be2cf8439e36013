// Hands serverless.yml the stack's alarms and dashboard (stack/operations.ts), one export per
// logical id, given the stage, the service, the alarm topic and the functions.
const { functions } = require('../functions/serverless-functions.cjs');
const { loadTs } = require('./load-ts.cjs');

/** The resources this file hands out; each must be listed under serverless.yml's `Resources`. */
const IDS = [
  'HttpApi5xxAlarm',
  'LambdaErrorsAlarm',
  'LambdaThrottlesAlarm',
  'LambdaDurationAlarm',
  'TableThrottlesAlarm',
  'AgbotIteratorAgeAlarm',
  'AgbotFailingAlarm',
  'AgbotStreamFailuresAlarm',
  'Dashboard',
];

let built;
/**
 * Every resource, built once per `serverless` run. Only a success is kept: serverless resolves in
 * phases, and a variable asked for before its source is ready fails that phase only.
 */
async function resources({ resolveVariable }) {
  if (built) return built;
  const [operations, fns, service, stage, alarmTopicArn, timeout] = await Promise.all([
    loadTs('operations.ts'),
    functions({ resolveVariable }),
    resolveVariable('self:service'),
    resolveVariable('sls:stage'),
    resolveVariable('param:alarmTopicArn'),
    resolveVariable('self:provider.timeout'),
  ]);
  const topic = String(alarmTopicArn ?? '').trim();
  if (topic && !/^arn:aws[\w-]*:sns:[a-z0-9-]+:\d{12}:[\w-]{1,256}$/.test(topic))
    throw new Error(
      `Stage parameter alarmTopicArn must be an SNS topic's ARN (arn:aws:sns:<region>:<account>:<name>) or empty, not ${JSON.stringify(topic)}`,
    );
  const all = operations.operationsResources({
    service,
    stage,
    alarmTopicArn: topic,
    functions: Object.entries(fns).map(([name, fn]) => ({ name, timeout: fn.timeout ?? timeout })),
  });
  const made = Object.keys(all).sort().join(', ');
  if (made !== [...IDS].sort().join(', '))
    throw new Error(
      `stack/operations.ts makes ${made}; stack/serverless-operations.cjs lists ${IDS.join(', ')}`,
    );
  built = all;
  return all;
}

for (const id of IDS) module.exports[id] = async (context) => (await resources(context))[id];
