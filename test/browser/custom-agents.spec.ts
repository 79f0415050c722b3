import { readFileSync } from 'node:fs';
import { expect, test } from './support/fixtures';
import { expectAccessible } from './support/accessibility';
import { PEOPLE } from './support/people';
import { callApi } from './support/seed';
import { signIn } from './support/session';

const manifest = JSON.parse(readFileSync(new URL('../../examples/invoice-checker/manifest.json', import.meta.url), 'utf8'));

/** A worker's protocol call with an agent key, as any worker process would make it. */
async function asWorker(baseUrl: string, key: string, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${baseUrl}/v1${path}`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: response.status === 204 ? undefined : await response.json() };
}

test("a custom agent's task runs from its card, its workers' key comes from Settings, and the task completes live", async ({ page, baseURL }) => {
  const slug = `invoices-${Date.now().toString(36)}`;
  await callApi(baseURL!, 'tenant_a', 'POST', '/agents/deploy', { agent_slug: slug, name: 'Invoice checker', manifest });
  await signIn(page, PEOPLE.adminA);

  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Invoice checker' }) }).filter({ hasText: slug });
  await expect(card).toContainText('Your workers (a custom agent)');
  await card.getByRole('button', { name: 'Run task' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Task type')).toHaveValue('invoice.check');
  await dialog.getByLabel('Invoice number').fill('INV-55');
  // The first Amount is the invoice's; the purchase order's (an optional object) comes after it.
  await dialog.getByLabel('Amount').first().fill('120');
  await dialog.getByRole('button', { name: 'Run task' }).click();
  await expect(page).toHaveURL(/\/tasks\/tsk_/);
  const taskId = page.url().split('/tasks/')[1];
  // The dashboard makes identifier-shaped tasks: waiting is `pending`.
  await expect(page.getByText('pending', { exact: true }).first()).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Generate new key' }).click();
  const keyDialog = page.getByRole('dialog');
  await keyDialog.getByLabel('Name').fill(`${slug} workers`);
  await keyDialog.getByLabel('Role').selectOption('agent');
  await keyDialog.getByLabel('Custom agent').selectOption(slug);
  await expectAccessible(page);
  await keyDialog.getByRole('button', { name: 'Generate key' }).click();
  const key = await keyDialog.getByLabel('New API key').inputValue();
  await keyDialog.getByRole('button', { name: 'Done' }).click();

  // The key does the worker's part, and nothing else.
  expect((await fetch(`${baseURL}/v1/tasks`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(403);
  const claim = await asWorker(baseURL!, key, `/agents/${slug}/claims`, { wait_seconds: 5 });
  expect(claim.body.task.task_id).toBe(taskId);
  await page.goto(`/tasks/${taskId}`);
  await expect(page.getByText('running', { exact: true }).first()).toBeVisible();
  expect((await asWorker(baseURL!, key, `/tasks/${taskId}/artifacts`, { lease_id: claim.body.lease_id, type: 'invoice.check_report', data: { invoice_number: 'INV-55', verdict: 'pass' } })).status).toBe(201);
  expect((await asWorker(baseURL!, key, `/tasks/${taskId}/complete`, { lease_id: claim.body.lease_id })).status).toBe(200);

  await expect(page.getByText('complete', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('list', { name: 'Task events' })).toContainText('task.complete');
  await expect(page.getByRole('heading', { name: 'invoice.check_report' })).toBeVisible();
  await expectAccessible(page);
});
