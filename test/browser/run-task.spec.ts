import { expect, test } from './support/fixtures';
import { expectAccessible } from './support/accessibility';
import { PEOPLE } from './support/people';
import { ensureAgent } from './support/seed';
import { signIn } from './support/session';

test('run a task from an agent card and watch it complete live on its page', async ({ page, baseURL }) => {
  await ensureAgent(baseURL!, 'tenant_a', 'ai-readiness', 'Compliance');
  await signIn(page, PEOPLE.adminA);

  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Compliance' }) });
  await card.getByRole('button', { name: 'Run task' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Task type')).toHaveValue('ai_readiness.full_audit');
  await dialog.getByRole('button', { name: 'Run task' }).click();
  await expect(dialog.getByText('Required.')).toBeVisible();
  await expectAccessible(page);
  await dialog.getByLabel('Scope').selectOption('full');
  await dialog.getByRole('button', { name: 'Run task' }).click();

  await expect(page).toHaveURL(/\/tasks\/tsk_/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Task ai_readiness.full_audit');
  await expect(page.getByText('complete', { exact: true }).first()).toBeVisible({ timeout: 45_000 });
  await expect(page.getByRole('list', { name: 'Task events' })).toContainText('task.complete');
  await expect(page.getByRole('heading', { name: 'ai_readiness.audit_report' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Recommendations, most severe first' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  await expectAccessible(page);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();
  await expect(page.getByRole('link', { name: 'ai_readiness.full_audit' }).first()).toBeVisible();
  await page.getByLabel('Status').selectOption('failed');
  await expect(page.getByText('No task matches these filters')).toBeVisible();
  await expectAccessible(page);
});
