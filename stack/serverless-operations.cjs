// Hands serverless.yml the stack's alarms and dashboard (stack/operations.ts), one export per
// logical id: esbuild bundles that module into CommonJS in memory, as functions/serverless-functions.cjs
// does with the route lists, and it is given the stage, the service, the alarm topic and the functions.
const { build } = require('esbuild');
const Module = require('node:module');
const path = require('node:path');
const { functions } = require('../functions/serverless-functions.cjs');

const entry = path.join(__dirname, 'operations.ts');

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

async function load() {
  const { outputFiles } = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    logLevel: 'error',
  });
  const loaded = new Module(entry, module);
  loaded.filename = entry;
  loaded.paths = Module._nodeModulePaths(__dirname);
  loaded._compile(outputFiles[0].text, entry);
  return loaded.exports;
}

let built;
/**
 * Every resource, built once per `serverless` run. Only a success is kept: serverless resolves in
 * phases, and a variable asked for before its source is ready fails that phase only.
 */
async function resources({ resolveVariable }) {
  if (built) return built;
  const [operations, fns, service, stage, alarmTopicArn, timeout] = await Promise.all([
    load(),
    functions({ resolveVariable }),
    resolveVariable('self:service'),
    resolveVariable('sls:stage'),
    resolveVariable('param:alarmTopicArn'),
    resolveVariable('self:provider.timeout'),
  ]);
  const all = operations.operationsResources({
    service,
    stage,
    alarmTopicArn: String(alarmTopicArn ?? '').trim(),
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
