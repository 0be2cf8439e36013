import { defineConfig } from 'vitest/config';
import { JOURNEY_MS } from './test/support/deadlines.ts';

/**
 * Each file loads the project's modules afresh (vitest's `isolate`, per project), so no module
 * state (caches, counters, hooks a helper registers) passes from one file to the next; and it
 * starts from the process's environment and directory as its first file found them.
 */
const freshModules = { isolate: true, setupFiles: ['test/restore-env.ts'] };
/**
 * Only the layers that call the Exchange through its table need DynamoDB Local (Java, ~2 s to
 * start). A project takes this or `freshModules`, never both: this one includes it.
 */
const withDynamoDb = {
  ...freshModules,
  globalSetup: ['test/global-setup.ts'],
  setupFiles: [...freshModules.setupFiles, 'test/setup-env.ts'],
};

export default defineConfig({
  test: {
    // Deadlines only bound a failure: a passing test never reaches them, and a loaded machine
    // (the whole suite beside a busy core) makes a 20 s wait take a minute.
    testTimeout: 120_000,
    // expect.poll waits on an event (vitest's default, 1 s, failed polls that a loaded machine
    // answers in 2 s). vi.waitFor has no setting: each call names its deadline.
    expect: { poll: { timeout: 60_000 } },
    // A hook may start serverless-offline, which takes up to 180 s on a loaded machine.
    hookTimeout: 240_000,
    // Two cores: integration and e2e files each start work against one shared DynamoDB Local.
    maxWorkers: 2,
    pool: 'forks',
    // A worker process runs file after file of one project instead of a new process per file: a
    // process's start and loading the SDKs cost about 1 s a file, a quarter of a small
    // integration file. So the processes are shared (`isolate: false` here, for the pool) and each
    // project isolates its files' modules (`freshModules`); test/restore-env.ts restores what a
    // process keeps. Vitest then runs the projects one after another, not side by side.
    isolate: false,
    // One run (`npx vitest run`) runs every project; `--project unit` (npm run test:unit) only one.
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], ...freshModules } },
      { extends: true, test: { name: 'agent', include: ['agent/**/*.test.ts'], ...freshModules } },
      { extends: true, test: { name: 'agbot', include: ['agbot/**/*.test.ts'], ...freshModules } },
      { extends: true, test: { name: 'cli', include: ['cli/**/*.test.ts'], ...freshModules } },
      // `serverless package` for real: the bundles and the CloudFormation template (no DynamoDB).
      { extends: true, test: { name: 'stack', include: ['test/stack/**/*.test.ts'], ...freshModules } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          ...withDynamoDb,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          ...withDynamoDb,
          // Journeys: several events in a row, each waited on with its own bound (EVENT_MS).
          testTimeout: JOURNEY_MS,
          hookTimeout: JOURNEY_MS,
          // Every function built once for the run; each file's serverless-offline runs that build,
          // and the workers' shared servers (shared-offline.ts) are stopped when the run ends.
          globalSetup: [
            ...withDynamoDb.globalSetup,
            'test/e2e/support/functions-build.ts',
            'test/e2e/support/shared-offline-setup.ts',
          ],
        },
      },
    ],
  },
});
