// Loads a TypeScript module of the stack for serverless.yml's `${file(...)}` helpers: esbuild
// bundles it into CommonJS in memory and it is evaluated here (as functions/serverless-functions.cjs
// does with the route lists). Each module is built once per `serverless` run.
const { build } = require('esbuild');
const Module = require('node:module');
const path = require('node:path');

const loaded = new Map();

module.exports.loadTs = (file) => {
  const entry = path.resolve(__dirname, file);
  if (!loaded.has(entry))
    loaded.set(
      entry,
      build({
        entryPoints: [entry],
        bundle: true,
        write: false,
        platform: 'node',
        format: 'cjs',
        target: 'node22',
        logLevel: 'error',
      }).then(({ outputFiles }) => {
        const compiled = new Module(entry, module);
        compiled.filename = entry;
        compiled.paths = Module._nodeModulePaths(__dirname);
        compiled._compile(outputFiles[0].text, entry);
        return compiled.exports;
      }),
    );
  return loaded.get(entry);
};
