import type { Browser, Page } from '@playwright/test';
import { median, summarize, type LatencySummary } from '../stats';

export interface ListPageTiming {
  path: string;
  /** First contentful paint after a full load, median. */
  firstPaintMs: number;
  /** Until the page's heading and its list (or empty state) are shown, from navigation start, median. */
  contentMs: number;
}

export interface Person {
  email: string;
  password: string;
}

/** The pages of the navigation that list records. */
export const LIST_PAGES = ['/agents', '/tasks', '/approvals', '/scans', '/events', '/webhooks', '/settings'] as const;

/** Signs in through the provider's form, as a person does. */
export async function signInPage(page: Page, origin: string, person: Person): Promise<void> {
  await page.goto(`${origin}/agents`);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 30_000 });
}

/**
 * Loads each list page afresh (`goto`, so the app starts as on a first visit) `rounds` times and
 * reads the browser's own clock: first contentful paint, and the moment the page's content (its
 * main heading, and no loading indicator left) was shown.
 */
export async function measureListPages(page: Page, origin: string, rounds: number): Promise<ListPageTiming[]> {
  const timings: ListPageTiming[] = [];
  for (const path of LIST_PAGES) {
    const paints: number[] = [];
    const contents: number[] = [];
    for (let round = 0; round < rounds; round++) {
      await page.goto(`${origin}${path}`, { waitUntil: 'commit' });
      await page.locator('main h1').first().waitFor({ timeout: 30_000 });
      await page.waitForFunction(() => !document.querySelector('main [aria-busy="true"], main [role="progressbar"]'), undefined, { timeout: 30_000, polling: 'raf' });
      const { paint, content } = await page.evaluate(() => ({
        paint: performance.getEntriesByType('paint').find((entry) => entry.name === 'first-contentful-paint')?.startTime ?? Number.NaN,
        content: performance.now(),
      }));
      paints.push(paint);
      contents.push(content);
    }
    timings.push({ path, firstPaintMs: median(paints), contentMs: median(contents) });
  }
  return timings;
}

/**
 * How long a new event takes to show on an open task page: the page watches its timeline with a
 * MutationObserver and notes the wall-clock time a row is added; the event is produced by an API
 * call (cancel), whose answer means it was written. Same machine, so both clocks are one.
 */
export async function measureTaskPageEvent(browser: Browser, page: Page, origin: string, tasks: { taskId: string; produce: () => Promise<number> }[]): Promise<LatencySummary> {
  const samples: number[] = [];
  void browser;
  for (const task of tasks) {
    await page.goto(`${origin}/tasks/${task.taskId}`);
    const timeline = page.getByRole('list', { name: 'Task events' });
    await timeline.locator('li').first().waitFor({ timeout: 30_000 });
    // Let the live stream connect before the event is made.
    await page.getByText('live', { exact: false }).first().waitFor({ timeout: 30_000 }).catch(() => undefined);
    await page.evaluate(() => {
      const list = document.querySelector('[aria-label="Task events"]')!;
      const before = list.querySelectorAll('li').length;
      (window as unknown as { shownAt?: number }).shownAt = undefined;
      new MutationObserver((_records, observer) => {
        if (list.querySelectorAll('li').length > before) {
          (window as unknown as { shownAt?: number }).shownAt = Date.now();
          observer.disconnect();
        }
      }).observe(list, { childList: true, subtree: true });
    });
    const writtenAt = await task.produce();
    const handle = await page.waitForFunction(() => (window as unknown as { shownAt?: number }).shownAt, undefined, { timeout: 30_000 });
    samples.push(((await handle.jsonValue()) as number) - writtenAt);
  }
  return summarize(samples);
}
