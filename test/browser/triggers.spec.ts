import { startSlackApiServer } from '../support/providers/slack-api-server';
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

test('a mail trigger gets its own address, says what it matches, and is not fired by hand', async ({ page, baseURL }) => {
  await ensureAgent(baseURL!, 'tenant_a', 'ai-readiness', 'Compliance');
  const name = `Browser audit requests ${Date.now()}`;
  await signIn(page, PEOPLE.adminA, '/triggers');
  await page.getByRole('button', { name: 'New trigger' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByRole('radio', { name: /^Mail/ }).check();
  await expect(dialog.getByLabel('Email integration (optional)')).toHaveValue('');
  const subject = dialog.getByLabel('Subject pattern (optional)');
  await subject.fill('(re)\\1');
  await dialog.getByLabel('Task agent').selectOption('ai-readiness-agent');
  await expect(dialog.getByLabel('Task type')).toHaveValue('ai_readiness.full_audit');
  await dialog.getByLabel('Input (JSON)').fill('{"scope":"quick"}');
  await dialog.getByRole('button', { name: 'Create trigger' }).click();
  // A backreference, which no linear-time engine runs: the API's own message, at the subject field.
  await expect(subject).toHaveAttribute('aria-invalid', 'true');
  await expect(subject).toHaveAccessibleDescription(/cannot run in linear time/);
  await expect(dialog.getByRole('alert')).toHaveText('One field needs attention.');
  await expectAccessible(page);

  await subject.fill('^audit');
  await dialog.getByRole('button', { name: 'Create trigger' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Trigger ${name}`);
  const triggerId = page.url().split('/').at(-1)!;
  try {
    const copy = page.getByRole('button', { name: /^Copy inbound address t-[^@]+@inbound\.localhost$/ });
    await expect(copy).toBeVisible();
    const address = (await copy.getAttribute('aria-label'))!.replace('Copy inbound address ', '');
    await expect(page.getByRole('definition').filter({ hasText: '^audit' })).toBeVisible();
    await expect(page.getByText('any sender')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Fire now' })).toHaveCount(0);
    await expect(page.getByText('No runs yet. They appear here for each mail sent to its address.')).toBeVisible();
    await copy.click();
    // The button's name follows its visible text (WCAG 2.5.3, label in name).
    await expect(page.getByRole('button', { name: `Copied inbound address ${address}` })).toHaveText('Copied');
    await expectAccessible(page);

    await page.goto('/triggers?type=mail');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name }) });
    await expect(row).toContainText(`mail to ${address}`);
    await expect(row).toContainText('on each mail');
    await expectAccessible(page);
  } finally {
    await callApi(baseURL!, 'tenant_a', 'DELETE', `/triggers/${triggerId}`).catch(() => undefined);
  }
});

test('a chat trigger listens to a channel of a Slack integration, with the pattern checked by the API', async ({ page, baseURL }) => {
  await ensureAgent(baseURL!, 'tenant_a', 'ai-readiness', 'Compliance');
  const slack = await startSlackApiServer({ tokens: { 'xoxb-browser-triggers': { team_id: 'T0TRIGGERS', team: 'Trigger Team', user_id: 'U0BOT', user: 'gatehouse-bot', bot_id: 'B0BOT' } } });
  const integrationName = `Browser Slack for triggers ${Date.now()}`;
  const name = `Browser audit on request ${Date.now()}`;
  let integrationId: string | undefined;
  let triggerId: string | undefined;
  try {
    ({ integration_id: integrationId } = await callApi<{ integration_id: string }>(baseURL!, 'tenant_a', 'POST', '/integrations', {
      kind: 'slack',
      name: integrationName,
      credentials: { bot_token: 'xoxb-browser-triggers', signing_secret: '8f742231b10e8888abcd99aaabbb85a5' },
      settings: { api_url: slack.url },
    }));
    await signIn(page, PEOPLE.adminA, '/triggers');
    await page.getByRole('button', { name: 'New trigger' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByRole('radio', { name: /^Chat/ }).check();
    await dialog.getByLabel('Slack integration').selectOption(integrationId);
    await dialog.getByLabel('Channel id').fill('C0123ABCD');
    const pattern = dialog.getByLabel('Pattern', { exact: true });
    await pattern.fill('[');
    await dialog.getByLabel('Task agent').selectOption('ai-readiness-agent');
    await dialog.getByLabel('Input (JSON)').fill('{"scope":"quick"}');
    await dialog.getByRole('button', { name: 'Add mapping' }).click();
    await expect(dialog.getByRole('group', { name: 'Input mapping' })).toHaveAccessibleDescription(/\{"chat": \{user, channel, text, ts\}\}/);
    await dialog.getByLabel('Input field 1').fill('repository');
    await dialog.getByLabel('JSON Pointer 1').fill('/chat/text');
    await dialog.getByRole('button', { name: 'Create trigger' }).click();
    // Not a regular expression: the API's message, at the pattern field.
    await expect(pattern).toHaveAttribute('aria-invalid', 'true');
    await expect(pattern).toHaveAccessibleDescription(/is not a regular expression/);
    await expectAccessible(page);

    await pattern.fill('^audit');
    await dialog.getByRole('button', { name: 'Create trigger' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Trigger ${name}`);
    triggerId = page.url().split('/').at(-1)!;
    await expect(page.getByRole('link', { name: integrationName })).toHaveAttribute('href', `/integrations/${integrationId}`);
    await expect(page.getByRole('definition').filter({ hasText: /^C0123ABCD$/ })).toBeVisible();
    await expect(page.getByRole('definition').filter({ hasText: /^\^audit$/ })).toBeVisible();
    await expect(page.getByText('/chat/text')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Fire now' })).toHaveCount(0);
    await expectAccessible(page);

    await page.getByRole('link', { name: 'All triggers' }).click();
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name }) });
    await expect(row).toContainText('chat in C0123ABCD matching ^audit');
  } finally {
    if (triggerId) await callApi(baseURL!, 'tenant_a', 'DELETE', `/triggers/${triggerId}`).catch(() => undefined);
    if (integrationId) await callApi(baseURL!, 'tenant_a', 'DELETE', `/integrations/${integrationId}`).catch(() => undefined);
    await slack.close();
  }
});

test('a chat trigger without a Slack integration says where to connect one', async ({ page }) => {
  await signIn(page, PEOPLE.adminB, '/triggers');
  await page.getByRole('button', { name: 'New trigger' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('radio', { name: /^Chat/ }).check();
  await expect(dialog.getByRole('status')).toContainText('No Slack integration is connected yet');
  await expect(dialog.getByRole('link', { name: 'connect Slack on the Integrations page' })).toHaveAttribute('href', '/integrations');
  await expect(dialog.getByLabel('Slack integration')).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Create trigger' })).toBeDisabled();
  await expectAccessible(page);
});

test('where the deployment receives no mail, the form says inbound mail is not available and creates no mail trigger', async ({ page, baseURL }) => {
  await ensureAgent(baseURL!, 'tenant_a', 'ai-readiness', 'Compliance');
  // The runtime's own config.json with one field as a deployment without SES receiving writes it
  // (config.json's inboundMail: false, test/infra/inbound-mail-option.test.ts).
  await page.route('**/config.json', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), inboundMail: false } });
  });
  await signIn(page, PEOPLE.adminA, '/triggers');
  await page.getByRole('button', { name: 'New trigger' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(`Browser no mail ${Date.now()}`);

  await dialog.getByRole('radio', { name: /^Mail/ }).check();

  await expect(dialog.getByRole('status')).toHaveText(/Inbound mail is not available in this deployment’s region/);
  await expect(dialog.getByLabel('From pattern (optional)')).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Create trigger' })).toBeDisabled();
  await expectAccessible(page);
  await dialog.getByRole('radio', { name: /^Schedule/ }).check();
  await expect(dialog.getByRole('button', { name: 'Create trigger' })).toBeEnabled();
});
