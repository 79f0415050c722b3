import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One DynamoDB Local and one SQS emulator for the whole run; each file provisions its own
    // table and queues in them, so files stay independent.
    globalSetup: ['test/support/global-setup.ts'],
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
