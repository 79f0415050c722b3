import { chromium, type Browser } from '@playwright/test';
import sparticuz from '@sparticuz/chromium';

/**
 * A headless Chromium without Playwright's own download (not reachable here): CHROMIUM_PATH if
 * set (Debian's `chromium`, a local Chrome), else the build @sparticuz/chromium brings with npm install.
 */
export async function launchChromium(): Promise<Browser> {
  const override = process.env.CHROMIUM_PATH;
  if (override) return chromium.launch({ executablePath: override, headless: true });
  // Lambda's one-process mode dies when a test closes one of several browser contexts; a machine has processes to spare.
  const args = sparticuz.args.filter((arg) => arg !== '--single-process');
  return chromium.launch({ executablePath: await sparticuz.executablePath(), args, headless: true });
}
