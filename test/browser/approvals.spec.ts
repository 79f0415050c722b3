import { expect, test } from './support/fixtures';
import { expectAccessible } from './support/accessibility';
import { PEOPLE } from './support/people';
import { callApi, ensureAgent } from './support/seed';
import { signIn } from './support/session';

interface Approval {
  approval_id: string;
  title: string;
  status: string;
  comment?: string;
  action: { type: string; to: string; subject: string; body: string };
  original_action?: { body: string };
  resolved_by?: { type: string; id: string };
}

/** A sales.draft_email task parked on its mail.send approval; answers that approval. */
async function pendingApproval(baseUrl: string): Promise<Approval & { task_id: string }> {
  const sales = await ensureAgent(baseUrl, 'tenant_a', 'sales', 'Sales');
  const input = { lead: { name: 'Ada Example', email: 'ada@prospect.example', company: 'Prospect Ltd' }, product: { name: 'Gatehouse', value_proposition: 'Keeps a human in the loop.' }, tone: 'concise' };
  const task = await callApi<{ task_id: string }>(baseUrl, 'tenant_a', 'POST', '/tasks', { agent_id: sales.agent_id, task_type: 'sales.draft_email', input });
  await expect
    .poll(async () => (await callApi<{ approvals: Approval[] }>(baseUrl, 'tenant_a', 'GET', `/approvals?task_id=${task.task_id}`)).approvals.length, { timeout: 30_000 })
    .toBe(1);
  const { approvals } = await callApi<{ approvals: Approval[] }>(baseUrl, 'tenant_a', 'GET', `/approvals?task_id=${task.task_id}`);
  return { ...approvals[0], task_id: task.task_id };
}

const approvalOf = (baseUrl: string, id: string) => callApi<Approval>(baseUrl, 'tenant_a', 'GET', `/approvals/${id}`);

test('an approver edits the email and approves it: the edited body is what gets approved', async ({ page, baseURL }) => {
  const approval = await pendingApproval(baseURL!);
  await signIn(page, PEOPLE.approverA, `/approvals?task_id=${approval.task_id}`);

  const pending = page.getByRole('region', { name: 'Pending' });
  await expect(pending.getByRole('heading', { name: approval.title })).toBeVisible();
  await expect(pending).toContainText(approval.action.subject);
  await expect(pending.getByRole('link', { name: 'Open task' })).toHaveAttribute('href', `/tasks/${approval.task_id}`);
  await expect(pending.getByText(/^in 2[34] hours$/)).toBeVisible();
  await expectAccessible(page);

  await pending.getByRole('button', { name: /^Edit/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Body')).toHaveValue(approval.action.body);
  await dialog.getByLabel('Body').fill('Hi Ada,\n\nOne line shorter.\n\nAna');
  await dialog.getByLabel('Comment (optional)').fill('Shorter is better.');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Approve edited action' }).click();
  await expect(dialog).toBeHidden();

  const resolved = page.getByRole('region', { name: 'Resolved' });
  await expect(resolved.getByText('approved', { exact: true })).toBeVisible();
  await expect(resolved).toContainText('Approved byPerson');
  await expect(resolved).toContainText('(you)');
  await expect(resolved).toContainText('Shorter is better.');
  await expect(pending).toContainText('Nothing waits for a decision');

  const stored = await approvalOf(baseURL!, approval.approval_id);
  expect(stored).toMatchObject({ status: 'approved', comment: 'Shorter is better.', action: { type: 'mail.send', to: approval.action.to, subject: approval.action.subject, body: 'Hi Ada,\n\nOne line shorter.\n\nAna' }, original_action: { body: approval.action.body }, resolved_by: { type: 'user' } });
  await expectAccessible(page);
});

test('an approver denies with a reason', async ({ page, baseURL }) => {
  const approval = await pendingApproval(baseURL!);
  await signIn(page, PEOPLE.approverA, `/approvals?task_id=${approval.task_id}`);

  await page.getByRole('button', { name: /^Deny/ }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Reason (optional)').fill('Not this lead.');
  await dialog.getByRole('button', { name: 'Deny' }).click();

  await expect(page.getByRole('region', { name: 'Resolved' }).getByText('denied', { exact: true })).toBeVisible();
  expect(await approvalOf(baseURL!, approval.approval_id)).toMatchObject({ status: 'denied', comment: 'Not this lead.', resolved_by: { type: 'user' } });
  await page.getByLabel('Status').selectOption('denied');
  await expect(page.getByRole('region', { name: 'Denied (and expired)' }).getByRole('heading', { name: approval.title })).toBeVisible();
  await expectAccessible(page);
});

test('a viewer sees the approval but cannot approve, deny or edit it', async ({ page, baseURL }) => {
  const approval = await pendingApproval(baseURL!);
  await signIn(page, PEOPLE.viewerA, `/approvals/${approval.approval_id}`);

  await expect(page.getByRole('heading', { level: 1 })).toHaveText(approval.title);
  for (const verb of ['Approve', 'Edit', 'Deny']) await expect(page.getByRole('button', { name: new RegExp(`^${verb}`) })).toBeDisabled();
  await expect(page.getByText('Needs the approver role; you are a viewer.')).toBeVisible();
  await expectAccessible(page);
  expect((await approvalOf(baseURL!, approval.approval_id)).status).toBe('pending');
});
