import { startGitHubApiServer } from '../support/providers/github-api-server';
import { startSlackApiServer } from '../support/providers/slack-api-server';
import { expect, test } from './support/fixtures';
import { expectAccessible } from './support/accessibility';
import { PEOPLE } from './support/people';
import { callApi } from './support/seed';
import { signIn } from './support/session';

// The providers are loopback servers started here: the local runtime allows loopback provider
// URLs (WEBHOOK_ALLOW_LOOPBACK=true, lib/local/provision.ts), so `API URL` points at them.

interface IntegrationList {
  integrations: { integration_id: string; name: string }[];
}

/** Tenant A's integrations named `name`, through the API. */
async function integrationsNamed(baseUrl: string, name: string) {
  const list = await callApi<IntegrationList>(baseUrl, 'tenant_a', 'GET', '/integrations?limit=100');
  return list.integrations.filter((integration) => integration.name === name);
}

test('an admin connects GitHub, tests the connection, sees it revoked when the token is, replaces the credentials and deletes it', async ({ page, browser, baseURL }) => {
  const github = await startGitHubApiServer({ tokens: { ghp_browser_good: { login: 'browser-octocat', id: 4242 } } });
  const name = `Browser GitHub ${Date.now()}`;
  try {
    await signIn(page, PEOPLE.adminA, '/agents');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Integrations' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Integrations');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Connect integration' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByLabel('Kind').selectOption('github');
    await dialog.getByLabel('Token').fill('ghp_browser_bad');
    await dialog.getByLabel('API URL (optional)').fill(github.url);
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    // GitHub answered 401: the API's complaint sits at the token field, and nothing was created.
    const token = dialog.getByLabel('Token');
    await expect(token).toHaveAttribute('aria-invalid', 'true');
    await expect(token).toHaveAccessibleDescription(/GitHub refused the token/);
    await expect(dialog.getByRole('alert')).toHaveText('One field needs attention.');
    expect(await integrationsNamed(baseURL!, name)).toEqual([]);
    await expectAccessible(page);

    await token.fill('ghp_browser_good');
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(page).toHaveURL(/\/integrations\/[^/]+$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Integration ${name}`);
    await expect(page.getByText('browser-octocat').first()).toBeVisible();
    await expect(page.getByText('ghp_browser_good')).toHaveCount(0);
    await expectAccessible(page);

    await page.getByRole('link', { name: 'All integrations' }).click();
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name }) });
    await expect(row).toContainText('GitHub');
    await expect(row).toContainText('browser-octocat');
    await expect(row).toContainText('active');
    await row.getByRole('link', { name }).click();

    await page.getByRole('button', { name: 'Test connection' }).click();
    const outcome = page.getByRole('status', { name: 'Connection test' });
    await expect(outcome).toContainText('Connected as browser-octocat');
    await expectAccessible(page);

    const viewerContext = await browser.newContext({ baseURL });
    try {
      const viewer = await viewerContext.newPage();
      await signIn(viewer, PEOPLE.viewerA, page.url().replace(baseURL!, ''));
      await expect(viewer.getByRole('heading', { level: 1 })).toHaveText(`Integration ${name}`);
      await expect(viewer.getByRole('button', { name: 'Test connection' })).toHaveCount(0);
      await expect(viewer.getByRole('button', { name: 'Replace credentials' })).toHaveCount(0);
      await expect(viewer.getByRole('button', { name: 'Delete' })).toHaveCount(0);
      await viewer.goto('/integrations');
      await expect(viewer.getByRole('link', { name })).toBeVisible();
      await expect(viewer.getByRole('button', { name: 'Connect integration' })).toHaveCount(0);
    } finally {
      await viewerContext.close();
    }

    // The token is revoked at GitHub: the next test is refused, which revokes the integration.
    github.state.tokens.delete('ghp_browser_good');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(outcome).toContainText('Not connected');
    await expect(outcome).toContainText('revoked');
    await expect(page.getByRole('definition').filter({ hasText: 'Replace the credentials to use it again' })).toContainText('GitHub refused the token');
    await expectAccessible(page);

    github.state.tokens.set('ghp_browser_rotated', { login: 'browser-octocat', id: 4242 });
    await page.getByRole('button', { name: 'Replace credentials' }).click();
    const replace = page.getByRole('dialog');
    await replace.getByLabel('Token').fill('ghp_browser_rotated');
    await replace.getByRole('button', { name: 'Replace credentials' }).click();
    await expect(replace).toHaveCount(0);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(outcome).toContainText('Connected as browser-octocat');
    await expect(page.getByText('Replace the credentials to use it again')).toHaveCount(0);

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete integration' }).click();
    await expect(page).toHaveURL(/\/integrations$/);
    await expect(page.getByRole('link', { name })).toHaveCount(0);
    expect(await integrationsNamed(baseURL!, name)).toEqual([]);
  } finally {
    for (const left of await integrationsNamed(baseURL!, name)) await callApi(baseURL!, 'tenant_a', 'DELETE', `/integrations/${left.integration_id}`);
    await github.close();
  }
});

test('a Slack integration shows the URLs to paste into the Slack app', async ({ page, baseURL }) => {
  const slack = await startSlackApiServer({ tokens: { 'xoxb-browser-bot': { team_id: 'T0BROWSER', team: 'Browser Team', user_id: 'U0BOT', user: 'gatehouse-bot', bot_id: 'B0BOT' } } });
  const name = `Browser Slack ${Date.now()}`;
  try {
    await signIn(page, PEOPLE.adminA, '/integrations');
    await page.getByRole('button', { name: 'Connect integration' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByLabel('Kind').selectOption('slack');
    await dialog.getByLabel('Bot token').fill('xoxb-browser-bot');
    await dialog.getByLabel('Signing secret').fill('8f742231b10e8888abcd99yyyzzz85a5');
    await dialog.getByLabel('API URL (optional)').fill(slack.url);
    await dialog.getByLabel('Approvers (optional)').fill('U0APPROVER1, U0APPROVER2');
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    // Not hex: the API's message at the signing secret.
    const secret = dialog.getByLabel('Signing secret');
    await expect(secret).toHaveAttribute('aria-invalid', 'true');
    await expect(secret).toHaveAccessibleDescription(/hex signing secret/);

    await secret.fill('8f742231b10e8888abcd99aaabbb85a5');
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Integration ${name}`);
    const integrationId = page.url().split('/').at(-1)!;
    await expect(page.getByText('@gatehouse-bot in Browser Team')).toBeVisible();
    await expect(page.getByText('U0APPROVER1, U0APPROVER2')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Interactivity request URL' })).toHaveValue(`${baseURL}/v1/integrations/${integrationId}/slack/interactions`);
    await expect(page.getByRole('textbox', { name: 'Event subscriptions request URL' })).toHaveValue(`${baseURL}/v1/integrations/${integrationId}/slack/events`);
    await expect(page.getByRole('button', { name: 'Copy Interactivity request URL' })).toBeVisible();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByRole('status', { name: 'Connection test' })).toContainText('Connected as @gatehouse-bot in Browser Team');
  } finally {
    for (const left of await integrationsNamed(baseURL!, name)) await callApi(baseURL!, 'tenant_a', 'DELETE', `/integrations/${left.integration_id}`);
    await slack.close();
  }
});

test('an email integration names its sender; without one the API says so at the field', async ({ page, baseURL }) => {
  const name = `Browser mail ${Date.now()}`;
  try {
    await signIn(page, PEOPLE.adminA, '/integrations');
    await page.getByRole('button', { name: 'Connect integration' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByLabel('Kind').selectOption('email');
    await expect(dialog.getByLabel('SMTP host')).toBeVisible();
    await expect(dialog.getByLabel('Password (optional)')).toHaveAttribute('type', 'password');
    await dialog.getByLabel('Sent through').selectOption('ses');
    await expect(dialog.getByLabel('SMTP host')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    const sender = dialog.getByLabel('Sender');
    await expect(sender).toHaveAttribute('aria-invalid', 'true');
    await expect(sender).toHaveAccessibleDescription(/required for email/);
    await expectAccessible(page);

    await sender.fill('Sales <sales@example.com>');
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Integration ${name}`);
    await expect(page.getByText('Sales <sales@example.com> via Amazon SES')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Slack app setup' })).toHaveCount(0);
  } finally {
    for (const left of await integrationsNamed(baseURL!, name)) await callApi(baseURL!, 'tenant_a', 'DELETE', `/integrations/${left.integration_id}`);
  }
});

test('a tenant without integrations is told what they are for', async ({ page }) => {
  await signIn(page, PEOPLE.adminB, '/integrations');
  await expect(page.getByText(/^No integrations yet\. An integration lets agents work with your own accounts/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Connect integration' })).toBeVisible();
  await expectAccessible(page);
});
