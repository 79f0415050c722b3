/**
 * `npm run screenshots`: the dashboard's main pages as PNGs in docs/screenshots/ (shown by
 * docs/dashboard.md). Starts the local runtime in memory as the browser tests do, seeds tenant A
 * through the API, signs in as its admin and photographs each page once it has loaded.
 */
import { mkdir } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { startTestSite } from '../support/test-site-server';
import { launchChromium } from './support/chromium';
import startRuntime from './support/global-setup';
import { PEOPLE } from './support/people';
import { seedShowcase, type Showcase } from './support/showcase-seed';

const OUT = 'docs/screenshots';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 800 };

interface Shot {
  file: string;
  path: (showcase: Showcase) => string;
  /** What must be on screen before the picture is taken. */
  ready: (page: Page) => Locator;
  /** Scrolled to the top (or bottom) of the picture, when the part worth showing is below the fold. */
  scroll?: { to: (page: Page) => Locator; block: 'start' | 'end' };
  viewport?: { width: number; height: number };
}

const SHOTS: Shot[] = [
  { file: 'agents.png', path: () => '/agents', ready: (page) => page.getByRole('heading', { name: 'AI readiness' }) },
  { file: 'task.png', path: (showcase) => `/tasks/${showcase.completedTaskId}`, ready: (page) => page.getByRole('list', { name: 'Task events' }) },
  {
    file: 'task-report.png',
    path: (showcase) => `/tasks/${showcase.completedTaskId}`,
    ready: (page) => page.getByRole('table', { name: 'Recommendations, most severe first' }),
    scroll: { to: (page) => page.getByRole('heading', { name: 'ai_readiness.audit_report' }), block: 'start' },
  },
  { file: 'approvals.png', path: () => '/approvals', ready: (page) => page.getByRole('button', { name: 'Approve' }).first(), scroll: { to: (page) => page.getByRole('button', { name: 'Approve' }).first(), block: 'end' } },
  { file: 'scan-findings.png', path: (showcase) => `/scans/${showcase.scanId}`, ready: (page) => page.getByRole('table', { name: 'Findings, most severe first' }), scroll: { to: (page) => page.getByRole('heading', { name: 'Findings', exact: true }), block: 'start' } },
  { file: 'events.png', path: () => '/events', ready: (page) => page.getByRole('row').filter({ hasText: 'approval.requested' }).first() },
  { file: 'settings-api-keys.png', path: () => '/settings', ready: (page) => page.getByRole('row', { name: /CI pipeline/ }) },
  { file: 'agents-375.png', path: () => '/agents', ready: (page) => page.getByRole('heading', { name: 'AI readiness' }), viewport: PHONE },
];

async function signIn(page: Page): Promise<void> {
  await page.goto('/agents');
  await page.getByLabel('Email').fill(PEOPLE.adminA.email);
  await page.getByLabel('Password').fill(PEOPLE.adminA.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

async function shoot(page: Page, shot: Shot, showcase: Showcase): Promise<void> {
  await page.setViewportSize(shot.viewport ?? DESKTOP);
  await page.goto(shot.path(showcase));
  await shot.ready(page).waitFor({ timeout: 30_000 });
  // Settle: no spinner, no half-drawn transition in the picture.
  await page.getByText(/^Loading/).first().waitFor({ state: 'hidden' });
  const { scroll } = shot;
  if (scroll) await scroll.to(page).evaluate((element, block) => (element.scrollIntoView({ block }), window.scrollBy(0, block === 'start' ? -16 : 16)), scroll.block);
  await page.screenshot({ path: `${OUT}/${shot.file}`, animations: 'disabled' });
  console.log(`wrote ${OUT}/${shot.file}`);
}

const site = await startTestSite();
const stopRuntime = await startRuntime();
const browser = await launchChromium();
try {
  const baseURL = process.env.GATEHOUSE_BROWSER_BASE_URL!;
  const showcase = await seedShowcase(baseURL, site);
  await mkdir(OUT, { recursive: true });
  const context = await browser.newContext({ baseURL, viewport: DESKTOP, locale: 'en-US', timezoneId: 'Europe/Berlin', colorScheme: 'light' });
  const page = await context.newPage();
  await signIn(page);
  for (const shot of SHOTS) await shoot(page, shot, showcase);
} finally {
  await browser.close();
  await stopRuntime();
  await site.close();
}
