import { expect, test } from './support/fixtures';
import { expectAccessible } from './support/accessibility';
import { PEOPLE } from './support/people';
import { signIn } from './support/session';

const LAST_ADMIN = 'at least one admin';

test('an admin invites a member, changes its role, cannot lose the last admin, removes the member, and audits it', async ({ page }) => {
  await signIn(page, PEOPLE.adminA, '/settings?tab=members');
  await expect(page.getByRole('tab', { name: 'Members', selected: true })).toBeVisible();
  const me = page.getByRole('row', { name: new RegExp(PEOPLE.adminA.email) });
  await expect(me).toContainText('(you)');
  await expectAccessible(page);

  const email = `member-${Date.now()}@tenant-a.example`;
  await page.getByRole('button', { name: 'Invite member' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Role').selectOption('viewer');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog).toHaveCount(0);
  const row = page.getByRole('row', { name: new RegExp(email) });
  await expect(row).toContainText('invited');
  await expect(row.getByLabel(`Role of ${email}`)).toHaveValue('viewer');

  await row.getByLabel(`Role of ${email}`).selectOption('operator');
  await expect(page.getByRole('status').filter({ hasText: 'is now' })).toHaveText(`${email} is now operator.`);
  await expect(row.getByLabel(`Role of ${email}`)).toHaveValue('operator');

  // The only admin of tenant A is the person signed in: neither a demotion nor a removal may pass.
  await me.getByLabel(`Role of ${PEOPLE.adminA.email}`).selectOption('viewer');
  await expect(page.getByRole('alert')).toContainText(LAST_ADMIN);
  await expect(me.getByLabel(`Role of ${PEOPLE.adminA.email}`)).toHaveValue('admin');
  await expectAccessible(page);
  await me.getByRole('button', { name: `Remove ${PEOPLE.adminA.email}` }).click();
  const confirm = page.getByRole('alertdialog');
  await confirm.getByRole('button', { name: 'Remove member' }).click();
  await expect(confirm.getByRole('alert')).toContainText(LAST_ADMIN);
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(me).toBeVisible();

  await row.getByRole('button', { name: `Remove ${email}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove member' }).click();
  await expect(row).toHaveCount(0);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Events' }).click();
  await page.getByRole('button', { name: 'Audit log' }).click();
  for (const type of ['member.added', 'member.role_changed', 'member.removed']) {
    await expect(page.getByRole('row').filter({ hasText: type }).filter({ hasText: '(you)' }).first()).toBeVisible();
  }
});

test('a viewer sees no members and cannot invite', async ({ page }) => {
  await signIn(page, PEOPLE.viewerA, '/settings?tab=members');
  await expect(page.getByText('Only admins see members')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Invite member' })).toHaveCount(0);
  await expect(page.getByRole('combobox')).toHaveCount(0);
  await expectAccessible(page);
});
