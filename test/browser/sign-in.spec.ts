import { expect, test } from './support/fixtures';
import { expectAccessible } from './support/accessibility';
import { PEOPLE } from './support/people';
import { signIn } from './support/session';

test('a person signs in through the form, sees the shell, and signs out', async ({ page }) => {
  await signIn(page, PEOPLE.adminA);

  await expect(page).toHaveURL(/\/agents$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Agents' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link')).toHaveText(['Agents', 'Tasks', 'Approvals', 'Triggers', 'Integrations', 'Scans', 'Events', 'Webhooks', 'Settings']);
  await expect(page.getByRole('banner')).toContainText('admin');
  await expectAccessible(page);
  // A link that opens another page hands focus to its heading, so a screen reader says where it led.
  await nav.getByRole('link', { name: 'Tasks' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tasks' })).toBeFocused();

  await page.getByRole('button', { name: 'Sign out' }).click();
  // The provider asks before ending its session; then the dashboard needs a new sign-in.
  await expect(page).toHaveURL(/\/oidc\//);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
});

test('the shell works at 375 px wide: nothing scrolls sideways and the skip link leads to the content', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signIn(page, PEOPLE.adminA);

  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  // The page's content arriving (a remount of the page after its loading state) leaves focus alone.
  await expect(page.getByRole('button', { name: 'Deploy an agent' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page);
});
