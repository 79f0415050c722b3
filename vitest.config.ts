import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One DynamoDB Local and one SQS emulator for the whole run; each file provisions its own
    // table and queues in them, so files stay independent.
    globalSetup: ['test/support/global-setup.ts'],
    env: {
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      // Functional tests (and runtimes they spawn) are not about request budgets or per-tenant task
      // caps; the files that are set their own first (rate-limit.test.ts, fairness.test.ts).
      GATEHOUSE_RATE_LIMIT_PER_SECOND: '1000',
      GATEHOUSE_RATE_LIMIT_BURST: '100000',
      GATEHOUSE_TENANT_TASK_CONCURRENCY: '100',
      // A revoked key is refused at once in tests; the deployed TTL is proven by authorizer-cache.test.ts.
      GATEHOUSE_AUTHORIZER_CACHE_SECONDS: '0',
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
