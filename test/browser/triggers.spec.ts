import { expect, test } from './support/fixtures';
import { expectAccessible } from './support/accessibility';
import { PEOPLE } from './support/people';
import { callApi, ensureAgent } from './support/seed';
import { signIn } from './support/session';

test('an operator creates a schedule trigger, sees its next runs, pauses, resumes, fires and deletes it', async ({ page, browser, baseURL }) => {
  await ensureAgent(baseURL!, 'tenant_a', 'ai-readiness', 'Compliance');
  const name = `Browser Monday audit ${Date.now()}`;
  await signIn(page, PEOPLE.adminA, '/agents');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Triggers' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Triggers');
  await expectAccessible(page);

  await page.getByRole('button', { name: 'New trigger' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByRole('textbox', { name: 'Cron' }).fill('0 25 * * 1');
  await dialog.getByLabel('Time zone').fill('Europe/Berlin');
  await dialog.getByLabel('Task agent').selectOption('ai-readiness-agent');
  await expect(dialog.getByLabel('Task type')).toHaveValue('ai_readiness.full_audit');
  await dialog.getByLabel('Input (JSON)').fill('{"scope":"full"}');
  await dialog.getByRole('button', { name: 'Create trigger' }).click();
  // The API's own message, at the cron field.
  const cron = dialog.getByRole('textbox', { name: 'Cron' });
  await expect(cron).toHaveAttribute('aria-invalid', 'true');
  await expect(cron).toHaveAccessibleDescription(/25/);
  await expectAccessible(page);

  await cron.fill('0 8 * * 1');
  await dialog.getByRole('button', { name: 'Create trigger' }).click();
  await expect(page).toHaveURL(/\/triggers\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Trigger ${name}`);
  const nextRuns = page.getByRole('table', { name: /The next 5 runs/ });
  await expect(nextRuns.getByRole('row')).toHaveCount(6);
  await expect(nextRuns).toContainText('Europe/Berlin');
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();
  await expect(page.getByText('Paused: no run is scheduled')).toBeVisible();
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect(nextRuns.getByRole('row')).toHaveCount(6);

  await page.getByRole('button', { name: 'Fire now' }).click();
  const fired = page.getByRole('status', { name: 'Run started by Fire now' });
  await expect(fired).toContainText('task created');
  await expect(fired.getByRole('link', { name: /^Open task / })).toHaveAttribute('href', /\/tasks\/tsk_/);
  const runs = page.getByRole('table', { name: 'Runs of this trigger, newest first' });
  await expect(runs.getByRole('link', { name: /^Task / })).toHaveCount(1);
  await expect(page.getByRole('table', { name: 'Tasks this trigger started, newest first' }).getByRole('link', { name: 'ai_readiness.full_audit' })).toBeVisible();
  await expectAccessible(page);
  // At 375 px the page reflows: nothing wider than the screen but the scrolling tables.
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.setViewportSize({ width: 1280, height: 800 });

  const viewerContext = await browser.newContext({ baseURL });
  try {
    const viewer = await viewerContext.newPage();
    await signIn(viewer, PEOPLE.viewerA, page.url().replace(baseURL!, ''));
    await expect(viewer.getByRole('heading', { level: 1 })).toHaveText(`Trigger ${name}`);
    await expect(viewer.getByRole('button', { name: 'Fire now' })).toHaveCount(0);
    await expect(viewer.getByRole('button', { name: 'Delete' })).toHaveCount(0);
    await viewer.goto('/triggers');
    await expect(viewer.getByRole('link', { name })).toBeVisible();
    await expect(viewer.getByRole('button', { name: 'New trigger' })).toHaveCount(0);
  } finally {
    await viewerContext.close();
  }

  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete trigger' }).click();
  await expect(page).toHaveURL(/\/triggers$/);
  await expect(page.getByRole('link', { name })).toHaveCount(0);
});

test('an event trigger enriches the leads a sales task finds, and its run shows in the log', async ({ page, baseURL }) => {
  await ensureAgent(baseURL!, 'tenant_a', 'sales', 'Sales');
  const name = `Browser enrich leads ${Date.now()}`;
  await signIn(page, PEOPLE.adminA, '/triggers');
  await page.getByRole('button', { name: 'New trigger' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByRole('radio', { name: /^Event/ }).check();
  await dialog.getByLabel('Artifact type').fill('sales.lead_list');
  await dialog.getByLabel('Emitted by agent (optional)').selectOption('sales');
  await dialog.getByLabel('Task agent').selectOption('sales');
  await dialog.getByLabel('Task type').selectOption('sales.enrich_leads');
  await dialog.getByRole('button', { name: 'Add mapping' }).click();
  await dialog.getByLabel('Input field 1').fill('leads');
  await dialog.getByLabel('JSON Pointer 1').fill('/artifact/data/leads');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Create trigger' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Trigger ${name}`);
  const triggerId = page.url().split('/').at(-1)!;
  try {
    await expect(page.getByText('/artifact/data/leads')).toBeVisible();
    await expect(page.getByText('No runs yet.')).toBeVisible();
    await expectAccessible(page);

    await callApi(baseURL!, 'tenant_a', 'POST', '/tasks', { agent: 'sales', task_type: 'sales.find_leads', input: { industries: ['fintech'], limit: 3 } });
    const runs = page.getByRole('table', { name: 'Runs of this trigger, newest first' });
    await expect(runs.getByText('task created')).toBeVisible({ timeout: 45_000 });
    await expect(runs.getByRole('link', { name: /^Task / })).toHaveAttribute('href', /\/tasks\/tsk_/);
    await expectAccessible(page);
  } finally {
    await callApi(baseURL!, 'tenant_a', 'DELETE', `/triggers/${triggerId}`).catch(() => undefined);
  }
});
