import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'agent/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup-env.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two cores: integration and e2e files each start work against one shared DynamoDB Local.
    maxWorkers: 2,
    pool: 'forks',
  },
});
