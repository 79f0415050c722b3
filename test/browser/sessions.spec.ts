import { expect, test } from './support/fixtures';
import { expectAccessible } from './support/accessibility';
import { PEOPLE } from './support/people';
import { ensureAgent } from './support/seed';
import { signIn } from './support/session';

test('an operator talks to an agent in a session, starts a task from it, sees the reply, and closes it', async ({ page, baseURL }) => {
  await ensureAgent(baseURL!, 'tenant_a', 'ai-readiness', 'Compliance');
  const title = `Browser session ${Date.now()}`;
  await signIn(page, PEOPLE.adminA, '/agents');
  await page.getByRole('main').getByRole('link', { name: 'Sessions', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sessions');
  await expectAccessible(page);

  await page.getByRole('button', { name: 'New session' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Agent').selectOption('ai-readiness-agent');
  await dialog.getByLabel('Title (optional)').fill(title);
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Start session' }).click();
  await expect(page).toHaveURL(/\/sessions\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expectAccessible(page);

  const transcript = page.getByRole('list', { name: 'Transcript' });
  await page.getByRole('textbox', { name: 'Message' }).fill('Hello, a note before we start.');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(transcript.getByRole('listitem').filter({ hasText: 'Hello, a note before we start.' })).toHaveAccessibleName('From the user');

  await page.getByRole('textbox', { name: 'Message' }).fill('Audit us, quickly.');
  await page.getByLabel('Task type (optional)').selectOption('ai_readiness.full_audit');
  await page.getByLabel('Input (JSON)').fill('{"scope":"quick"}');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(transcript.getByRole('listitem').filter({ hasText: 'Audit us, quickly.' }).getByRole('link', { name: 'Started task ai_readiness.full_audit' })).toBeVisible();
  const reply = transcript.getByRole('listitem', { name: 'From agent ai-readiness-agent' });
  await expect(reply).toBeVisible({ timeout: 45_000 });
  await expect(reply.getByRole('link', { name: 'Task ai_readiness.full_audit' })).toHaveAttribute('href', /\/tasks\/tsk_/);
  await expect(transcript.getByRole('listitem', { name: /^From / })).toHaveCount(3);
  await expect(page.getByRole('table', { name: 'Tasks of this session, newest first' }).getByRole('link', { name: 'ai_readiness.full_audit' })).toBeVisible();
  await expectAccessible(page);
  // At 375 px the transcript and the composer reflow: nothing wider than the screen.
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('button', { name: 'Close session' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Close session' }).click();
  await expect(page.getByText('This session is closed')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Close session' })).toHaveCount(0);
  await expectAccessible(page);

  await page.getByRole('link', { name: 'All sessions' }).click();
  await page.getByLabel('Status').selectOption('closed');
  await expect(page.getByRole('link', { name: title })).toBeVisible();
});
