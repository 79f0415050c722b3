import sparticuz from '@sparticuz/chromium';
import { randomUUID } from 'node:crypto';
import { chromium, type Browser } from 'playwright-core';

/**
 * Launches the headless Chromium that @sparticuz/chromium brings (built for Lambda, x86_64): the
 * same binary on Lambda, under `npm start` and in tests. CHROMIUM_PATH points at another build
 * (Debian's `chromium`); CHROMIUM_BIN_DIR at the packed binary when it ships apart from the
 * package (the detector function's layer).
 */

export const CHROMIUM_PATH_ENV = 'CHROMIUM_PATH';
export const CHROMIUM_BIN_DIR_ENV = 'CHROMIUM_BIN_DIR';

/** The renderer's V8 heap limit: a page past it crashes alone instead of exhausting the function. */
export const PAGE_HEAP_MB = 512;

// Flags that make the browser behave like a user's rather than a test harness's: same-origin rules
// and mixed-content blocking stay on (sparticuz turns them off for scraping).
const USER_BROWSER_FLAGS_REMOVED = new Set(['--disable-web-security', '--allow-running-insecure-content']);

/**
 * Defence in depth behind request interception (page-renderer.ts): anything the interception
 * did not answer would go to a proxy that does not exist, loopback included, and the browser makes
 * no traffic of its own (DNS prefetch, background services, WebRTC's UDP).
 */
const NETWORK_LOCKDOWN_FLAGS = [
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
  '--dns-prefetch-disable',
  '--disable-background-networking',
  '--disable-component-update',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/** The flags of a launch; sparticuz's serverless flags only for its own build, which needs them. */
export function chromiumArgs(ownBuild: boolean): string[] {
  const serverless = ownBuild ? sparticuz.args.filter((arg) => !USER_BROWSER_FLAGS_REMOVED.has(arg)) : [];
  return [...serverless, ...NETWORK_LOCKDOWN_FLAGS, `--js-flags=--max-old-space-size=${PAGE_HEAP_MB}`];
}

/** CHROMIUM_PATH when set, else @sparticuz/chromium's binary, inflated into /tmp on first use. */
export async function chromiumExecutablePath(): Promise<string> {
  return process.env[CHROMIUM_PATH_ENV] || (await sparticuz.executablePath(process.env[CHROMIUM_BIN_DIR_ENV] || undefined));
}

/** A running browser and the way to end it even when it no longer answers. */
export interface LaunchedBrowser {
  browser: Browser;
  /** SIGKILLs the browser process: a page spinning in a one-process browser blocks a polite close. */
  kill(): Promise<void>;
}

/**
 * Launched as a server on loopback (a random path as its secret) and connected to, because only a
 * server's process can be killed: Lambda's one-process Chromium runs page scripts on the thread
 * that would answer `close()`.
 */
export async function launchChromium(): Promise<LaunchedBrowser> {
  const override = process.env[CHROMIUM_PATH_ENV];
  const executablePath = await chromiumExecutablePath();
  const server = await chromium.launchServer({ executablePath, args: chromiumArgs(!override), headless: true, timeout: 30_000, host: '127.0.0.1', wsPath: `/${randomUUID()}` });
  try {
    const browser = await chromium.connect(server.wsEndpoint(), { timeout: 30_000 });
    return { browser, kill: () => server.kill() };
  } catch (error) {
    await server.kill();
    throw error;
  }
}
