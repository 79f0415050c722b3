import { chromium, type Browser } from '@playwright/test';
import sparticuz from '@sparticuz/chromium';
import { CHROMIUM_PATH_ENV, chromiumExecutablePath } from '#shared/adapters/browser/chromium';

/**
 * A headless Chromium without Playwright's own download (not reachable here), the binary the
 * scans' detector uses (CHROMIUM_PATH if set, else @sparticuz/chromium's), but without the
 * detector's network lockdown: these tests browse the local runtime on loopback.
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = await chromiumExecutablePath();
  if (process.env[CHROMIUM_PATH_ENV]) return chromium.launch({ executablePath, headless: true });
  // Lambda's one-process mode dies when a test closes one of several browser contexts; a machine has processes to spare.
  const args = sparticuz.args.filter((arg) => arg !== '--single-process');
  return chromium.launch({ executablePath, args, headless: true });
}
