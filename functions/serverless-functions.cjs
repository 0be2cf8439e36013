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

module.exports.functions = () => loadFamilies().functions();
