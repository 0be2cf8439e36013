import { inject } from 'vitest';

/**
 * Environment for an `npm start` launched by an e2e test: its serverless-offline runs the
 * functions the e2e project built once for the run (functions-build.ts) instead of building its
 * own, as each file's useOffline server does. A minute less per launch; the build itself is the
 * same (scripts/exchange-functions-build.ts builds as serverless-esbuild does). The first start of
 * test/e2e/npm-start.test.ts keeps building, as `npm start` does for a user.
 */
export const prebuiltFunctions = (): Record<string, string> => ({
  EXCHANGE_PREBUILT: '1',
  EXCHANGE_BUILD_DIR: inject('exchangeBuildDir'),
});
