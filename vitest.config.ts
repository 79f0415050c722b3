import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One DynamoDB Local and one SQS emulator for the whole run; each file provisions its own
    // table and queues in them, so files stay independent.
    globalSetup: ['test/support/global-setup.ts'],
    env: {
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      // Quiet unless debugging (GATEHOUSE_LOG_LEVEL=INFO npx vitest run ...); tests of the
      // logs and metrics turn them on themselves. See docs/operating/log-queries.md.
      POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? process.env.GATEHOUSE_LOG_LEVEL ?? 'SILENT',
      POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED ?? 'true',
      POWERTOOLS_TRACE_ENABLED: 'false',
    },
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
