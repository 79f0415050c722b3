import { test as base, expect, type Browser } from '@playwright/test';
import { launchChromium } from './chromium';

export { expect };

/**
 * Playwright's `test` with our browser (launched once per worker by launchChromium) and the
 * runtime's origin as baseURL (global setup starts it). Specs import `test` from here.
 */
export const test = base.extend<{ baseUrlOfRuntime: string }, { browser: Browser }>({
  browser: [
    async ({}, use) => {
      const browser = await launchChromium();
      await use(browser);
      await browser.close();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({}, use) => {
    const url = process.env.GATEHOUSE_BROWSER_BASE_URL;
    if (!url) throw new Error('GATEHOUSE_BROWSER_BASE_URL is not set: run through playwright.config.ts (global setup starts the runtime).');
    await use(url);
  },
  baseUrlOfRuntime: async ({ baseURL }, use) => use(baseURL!),
});
