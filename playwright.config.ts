import { defineConfig } from '@playwright/test';

/**
 * Browser tests of the dashboard (test/browser/*.spec.ts; vitest only takes *.test.ts). Global
 * setup starts one local runtime in memory with people in two tenants; the browser comes from
 * test/browser/support/chromium.ts (CHROMIUM_PATH, else @sparticuz/chromium).
 */
export default defineConfig({
  testDir: 'test/browser',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/browser/support/global-setup.ts',
  // One runtime, two cores shared with other work: one browser at a time.
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  retries: 0,
  reporter: process.env.CI ? 'list' : [['list']],
  outputDir: 'test-results',
  use: {
    viewport: { width: 1280, height: 800 },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
