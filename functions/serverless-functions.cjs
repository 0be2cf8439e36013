// Hands serverless.yml its `functions:`, generated from the route lists (functions/families.ts):
// esbuild bundles that module (route lists are strings and zod, no handler) into CommonJS in
// memory, and it is evaluated here. Same idea as tables/serverless-table.cjs.
const { buildSync } = require('esbuild');
const Module = require('node:module');
const path = require('node:path');

const entry = path.join(__dirname, 'families.ts');

function loadFamilies() {
  const { outputFiles } = buildSync({
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

/**
 * The signal channel (docs/signals.md): API Gateway's WebSocket API, one small Lambda for its three
 * routes. It is not a route family: no HTTP mount, no OpenAPI operation.
 */
const signals = {
  handler: 'functions/signals/lambda.handler',
  memorySize: 256,
  events: [
    { websocket: { route: '$connect' } },
    { websocket: { route: '$disconnect' } },
    { websocket: { route: '$default' } },
  ],
};

module.exports.functions = () => ({ ...loadFamilies().functions(), signals });

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
