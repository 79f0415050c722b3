import { expect, test } from './support/fixtures';
import { expectAccessible } from './support/accessibility';
import { PEOPLE } from './support/people';
import { callApi, ensureAgent } from './support/seed';
import { signIn } from './support/session';
import { startReceiver } from '../support/webhook-receiver';

test('an admin adds a webhook and sees its signing secret once; a viewer cannot add one', async ({ page, browser, baseURL }) => {
  await signIn(page, PEOPLE.adminA, '/webhooks');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Add webhook' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('URL').fill('http://127.0.0.1:9/browser-hooks');
  await dialog.getByRole('checkbox', { name: 'approval.requested' }).check();
  await dialog.getByRole('button', { name: 'Add webhook' }).click();
  await expect(dialog).toContainText('you will not see it again');
  const secret = await dialog.getByLabel('Signing secret').inputValue();
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await expectAccessible(page);
  await dialog.getByRole('link', { name: 'Open the webhook' }).click();

  await expect(page.getByRole('heading', { name: 'Webhook', exact: true })).toBeVisible();
  await expect(page.getByText('http://127.0.0.1:9/browser-hooks').first()).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Deliveries' })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
  const rotated = await page.getByRole('dialog').getByLabel('New signing secret').inputValue();
  expect(rotated).not.toBe(secret);
  await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('Previous secret valid until')).toBeVisible();

  await page.getByRole('button', { name: 'Recover' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Recover failed deliveries' }).click();
  await expect(page.getByRole('dialog').getByRole('status')).toContainText('nothing to send again');
  await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();

  const viewerContext = await browser.newContext({ baseURL });
  try {
    const viewer = await viewerContext.newPage();
    await signIn(viewer, PEOPLE.viewerA, '/webhooks');
    await expect(viewer.getByRole('link', { name: 'http://127.0.0.1:9/browser-hooks' })).toBeVisible();
    await expect(viewer.getByRole('button', { name: 'Add webhook' })).toHaveCount(0);
  } finally {
    await viewerContext.close();
  }

  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete webhook' }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await expect(page.getByText('http://127.0.0.1:9/browser-hooks')).toHaveCount(0);
});

test('a viewer opens a delivery and sees the request it sent and the response it got', async ({ page, baseURL }) => {
  const receiver = await startReceiver(() => ({ status: 200, body: JSON.stringify({ received: true, note: 'n'.repeat(5 * 1024) }) }));
  const webhook = await callApi<{ webhook_id: string }>(baseURL!, 'tenant_a', 'POST', '/webhooks', { url: receiver.url, events: ['task.complete'], secret: 'browser-test-secret-0123456789' });
  try {
    await ensureAgent(baseURL!, 'tenant_a', 'ai-readiness', 'Compliance');
    await callApi(baseURL!, 'tenant_a', 'POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } });
    await expect
      .poll(async () => (await callApi<{ deliveries: { status: string }[] }>(baseURL!, 'tenant_a', 'GET', `/webhooks/${webhook.webhook_id}/deliveries`)).deliveries[0]?.status, { timeout: 45_000 })
      .toBe('succeeded');

    await signIn(page, PEOPLE.viewerA, `/webhooks/${webhook.webhook_id}`);
    const disclosure = page.getByRole('button', { name: /Show request and responses/ });
    await expect(disclosure).toHaveAttribute('aria-expanded', 'false');
    await disclosure.click();

    await expect(page.getByRole('button', { name: /Hide request and responses/ })).toHaveAttribute('aria-expanded', 'true');
    const request = page.getByRole('region', { name: /^Request of delivery/ });
    await expect(request).toContainText(`POST ${receiver.url}`);
    await expect(request).toContainText('X-Service-Signature');
    await expect(request.getByLabel(/^Request body of delivery/)).toContainText('"type": "task.complete"');
    const responses = page.getByRole('region', { name: /^Responses of delivery/ });
    await expect(responses).toContainText('HTTP 200');
    await expect(responses).toContainText('text/plain');
    await expect(responses.getByLabel(/^Response body of attempt 1/)).toContainText('{"received":true,"note":"nnn');
    await expect(responses).toContainText('truncated');
    await expectAccessible(page);
  } finally {
    await callApi(baseURL!, 'tenant_a', 'DELETE', `/webhooks/${webhook.webhook_id}`);
    await receiver.close();
  }
});
