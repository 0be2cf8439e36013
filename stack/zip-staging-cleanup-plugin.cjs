// serverless-esbuild 1.57 stages each function's zip in a directory of the OS's temp dir,
// `<function>-<pid>-<ms>-<hex>`, and never removes it: its release is a non-recursive remove of
// a full directory, whose error it ignores (floydspace/serverless-esbuild#589). That is about
// 5 MB per function, 100 MB per `serverless package` or `deploy` here. This removes the ones
// this process staged, once the zips are written.
const { readdirSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

class ZipStagingCleanupPlugin {
  constructor(serverless) {
    const removeStaging = () => {
      const functions = new Set(serverless.service.getAllFunctions());
      const ours = new RegExp(`^(.+)-${process.pid}-\\d+-[0-9a-f]{8}$`);
      for (const name of readdirSync(tmpdir())) {
        const match = ours.exec(name);
        if (match && functions.has(match[1]))
          rmSync(path.join(tmpdir(), name), { recursive: true, force: true });
      }
    };
    this.hooks = {
      'after:package:createDeploymentArtifacts': removeStaging,
      'after:deploy:function:packageFunction': removeStaging,
    };
  }
}

module.exports = ZipStagingCleanupPlugin;
