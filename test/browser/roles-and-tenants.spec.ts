import { expect, test } from './support/fixtures';
import { expectAccessible } from './support/accessibility';
import { PEOPLE } from './support/people';
import { callApi, ensureAgent } from './support/seed';
import { signIn } from './support/session';

/** A task that waits for a human (an approval-gated email draft): still cancellable. */
async function waitingTask(baseUrl: string): Promise<string> {
  const sales = await ensureAgent(baseUrl, 'tenant_a', 'sales', 'Sales');
  const input = { lead: { domain: 'xylomarket.example' }, product: { name: 'Gatehouse', value_proposition: 'Gatehouse keeps a human in the loop for every risky agent action.' } };
  const task = await callApi<{ task_id: string }>(baseUrl, 'tenant_a', 'POST', '/tasks', { agent_id: sales.agent_id, task_type: 'sales.draft_email', input });
  return task.task_id;
}

test('an admin may cancel a waiting task; a viewer sees no Run task and no Cancel', async ({ browser, baseURL }) => {
  const taskId = await waitingTask(baseURL!);
  const contexts = [await browser.newContext({ baseURL }), await browser.newContext({ baseURL })];
  const [admin, viewer] = await Promise.all(contexts.map((context) => context.newPage()));
  try {

  await signIn(admin, PEOPLE.adminA, `/tasks/${taskId}`);
  await expect(admin.getByText('awaiting approval', { exact: true }).first()).toBeVisible({ timeout: 30_000 });
  await expect(admin.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await expect(admin.getByRole('article', { name: /Email draft/ })).toContainText('Subject');

  await signIn(viewer, PEOPLE.viewerA, `/tasks/${taskId}`);
  await expect(viewer.getByRole('banner')).toContainText('viewer');
  await expect(viewer.getByText('awaiting approval', { exact: true }).first()).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  await viewer.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Agents' }).click();
  await expect(viewer.getByRole('heading', { name: 'Agents', level: 1 })).toBeVisible();
  await expect(viewer.getByRole('heading', { name: 'Sales', exact: true })).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Run task' })).toHaveCount(0);
  await expect(viewer.getByRole('button', { name: 'Deploy an agent' })).toHaveCount(0);
  await expectAccessible(viewer);

  await admin.getByRole('button', { name: 'Cancel' }).click();
  await admin.getByRole('alertdialog').getByRole('button', { name: 'Cancel task' }).click();
  await expect(admin.getByText('cancelled', { exact: true }).first()).toBeVisible();
  } finally {
    for (const context of contexts) await context.close();
  }
});

test('tenant B sees nothing of tenant A', async ({ page, baseURL }) => {
  const taskId = await waitingTask(baseURL!);

  await signIn(page, PEOPLE.adminB);

  await expect(page.getByText('No agents are deployed yet')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();
  await expect(page.getByText('No tasks yet')).toBeVisible();
  await page.goto(`/tasks/${taskId}`);
  await expect(page.getByRole('alert')).toContainText('Not Found');
  await expect(page.getByText('xylomarket')).toHaveCount(0);
});
