// Hands serverless.yml its `functions:`, generated from the route lists (functions/families.ts):
// esbuild bundles that module into CommonJS in memory, and it is evaluated here. Same idea as
// tables/serverless-table.cjs. A route names its handler through a dynamic import, which is
// never called here, so those imports stay out of the bundle.
const { existsSync } = require('node:fs');
const { build } = require('esbuild');
const Module = require('node:module');
const path = require('node:path');
const { concurrency } = require('../stack/serverless-params.cjs');
const { assignRoles } = require('../stack/serverless-roles.cjs');

const entry = path.join(__dirname, 'families.ts');

/** Leaves every `import()` (a route's handler module) unbundled: reading the lists loads no handler. */
const handlersStayOut = {
  name: 'handlers-stay-out',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
    );
  },
};

async function loadFamilies() {
  const { outputFiles } = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    logLevel: 'error',
    plugins: [handlersStayOut],
  });
  const loaded = new Module(entry, module);
  loaded.filename = entry;
  loaded.paths = Module._nodeModulePaths(__dirname);
  loaded._compile(outputFiles[0].text, entry);
  return loaded.exports;
}

/**
 * `EXCHANGE_SIGNALS_URL` of every function: the channel's address, which POST /changes announces
 * and every write signals through. Set in the environment locally (npm start and the tests give
 * serverless-offline's WebSocket port); on AWS, the stack's own WebSocket API.
 */
module.exports.signalsUrl = async ({ resolveVariable }) =>
  process.env.EXCHANGE_SIGNALS_URL ?? {
    'Fn::Join': [
      '',
      [
        'wss://',
        { Ref: 'WebsocketsApi' },
        '.execute-api.',
        { Ref: 'AWS::Region' },
        '.amazonaws.com/',
        await resolveVariable('sls:stage'),
      ],
    ],
  };

/**
 * EXCHANGE_PREBUILT=1: the functions are already built in EXCHANGE_BUILD_DIR (the end-to-end tests
 * build them once per run, scripts/exchange-functions-build.ts), so serverless-esbuild skips every
 * function and serverless-offline runs the bundles found there. Only a finished build is accepted.
 */
function prebuilt() {
  if (!process.env.EXCHANGE_PREBUILT) return false;
  const workDir = path.resolve(__dirname, '..', process.env.EXCHANGE_BUILD_DIR || '.esbuild');
  if (!existsSync(path.join(workDir, 'built.json')))
    throw new Error(`EXCHANGE_PREBUILT is set but ${workDir} holds no finished build (built.json)`);
  return true;
}

/**
 * `EXCHANGE_API_URL` of the in-stack agbot (functions/agbot-round/function.ts): the Exchange it
 * calls. Set in the environment locally (npm start and the tests give serverless-offline's HTTP
 * port); on AWS, the stack's own HTTP API.
 */
const exchangeApiUrl = () =>
  process.env.EXCHANGE_API_URL ?? {
    'Fn::Join': [
      '',
      ['https://', { Ref: 'HttpApi' }, '.execute-api.', { Ref: 'AWS::Region' }, '.amazonaws.com/v1'],
    ],
  };

module.exports.functions = async ({ resolveVariable }) => {
  const functions = (await loadFamilies()).stackFunctions();
  functions.agbotRound.environment = { EXCHANGE_API_URL: exchangeApiUrl() };
  // The functions that could starve the others get a reserved concurrency (stage parameters,
  // docs/operations.md "Limits"); the agbot's round has exactly one (functions/agbot-round/function.ts).
  functions.signals.reservedConcurrency = await concurrency(resolveVariable, 'signalsConcurrency');
  functions.unrecognizedRoute.reservedConcurrency = await concurrency(resolveVariable, 'fallbackConcurrency');
  // The functions that need more than the table's items have a role of their own (stack/permissions.ts).
  await assignRoles(functions);
  if (!prebuilt()) return functions;
  return Object.fromEntries(
    Object.entries(functions).map(([name, fn]) => [name, { ...fn, skipEsbuild: true }]),
  );
};
