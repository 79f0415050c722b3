import { expect, test } from './support/fixtures';
import { expectAccessible } from './support/accessibility';
import { PEOPLE } from './support/people';
import { callApi, ensureAgent } from './support/seed';
import { signIn } from './support/session';

/** The status of GET /v1/me with this key, as any script would call it. */
async function meStatus(baseUrl: string, key: string): Promise<number> {
  const response = await fetch(`${baseUrl}/v1/me`, { headers: { Authorization: `Bearer ${key}` } });
  return response.status;
}

test('an admin generates a key, copies it, uses it, revokes it, and finds both in the audit log', async ({ page, baseURL, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await signIn(page, PEOPLE.adminA, '/settings');
  await expect(page.getByRole('tab', { name: 'API keys', selected: true })).toBeVisible();
  await expectAccessible(page);

  const name = `browser key ${Date.now()}`;
  await page.getByRole('button', { name: 'Generate new key' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Role').selectOption('viewer');
  await dialog.getByRole('button', { name: 'Generate key' }).click();
  await expect(dialog).toContainText('you will not see it again');
  const key = await dialog.getByLabel('New API key').inputValue();
  expect(key).toMatch(/^gh_live_/);
  await dialog.getByRole('button', { name: 'Copy API key' }).click();
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Done' }).click();

  expect(await meStatus(baseURL!, key)).toBe(200);
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('viewer');
  await expect(row).toContainText('(you)');

  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(row).toContainText('Revoked');
  expect(await meStatus(baseURL!, key)).toBe(401);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Events' }).click();
  await page.getByRole('button', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  const created = page.getByRole('row').filter({ hasText: 'api_key.created' }).filter({ hasText: '(you)' });
  await expect(created.first()).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'api_key.revoked' }).first()).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'task.created' })).toHaveCount(0);
  await expectAccessible(page);
});

test('a viewer reads retention but cannot generate keys or see usage', async ({ page }) => {
  await signIn(page, PEOPLE.viewerA, '/settings');
  await expect(page.getByRole('button', { name: 'Generate new key' })).toHaveCount(0);
  await expect(page.getByText('Only admins see API keys')).toBeVisible();
  await page.getByRole('tab', { name: 'Data retention' }).click();
  await expect(page.getByText('Artifacts are kept')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save retention' })).toHaveCount(0);
  await page.getByRole('tab', { name: 'Usage' }).click();
  await expect(page.getByText('Only admins see usage')).toBeVisible();
  await expectAccessible(page);
});

test('an admin changes retention and sees this month’s usage with a chart, a table and the CSV', async ({ page, baseURL }) => {
  const audit = await ensureAgent(baseURL!, 'tenant_a', 'ai-readiness', 'AI readiness');
  await callApi(baseURL!, 'tenant_a', 'POST', '/tasks', { agent_id: audit.agent_id, task_type: 'ai_readiness.full_audit', input: { scope: 'full' } });
  await signIn(page, PEOPLE.adminA, '/settings?tab=retention');
  await page.getByRole('spinbutton', { name: 'Number of days' }).fill('30');
  await page.getByRole('button', { name: 'Save retention' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toContainText('30 days');
  await expectAccessible(page);

  await page.getByRole('tab', { name: 'Usage' }).click();
  await expect(page.getByLabel('Month')).toHaveValue(new Date().toISOString().slice(0, 7));
  await expect(page.getByRole('img', { name: /Tasks by agent/ })).toBeVisible();
  await expect(page.getByRole('table', { name: /Tasks by agent and task type/ })).toContainText('ai_readiness.full_audit');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  expect((await download).suggestedFilename()).toBe(`usage-${new Date().toISOString().slice(0, 7)}.csv`);
  await expectAccessible(page);
});
