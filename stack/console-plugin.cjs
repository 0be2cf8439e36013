// Builds the web console (npm run build:console, scripts/build-console.ts) when the stack is
// packaged, so `serverless package` and `serverless deploy` ship console/dist (serverless.yml's
// package.patterns) as part of the one deploy. `npm start` builds it itself before serverless-offline.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

class ConsolePlugin {
  constructor(serverless) {
    this.serverless = serverless;
    this.hooks = {
      'package:initialize': () => {
        const root = path.resolve(__dirname, '..');
        execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-console.ts'], {
          cwd: root,
          stdio: ['ignore', 'inherit', 'inherit'],
        });
      },
    };
  }
}

module.exports = ConsolePlugin;
