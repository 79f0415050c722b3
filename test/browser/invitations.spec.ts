import { expect, test } from './support/fixtures';
import { expectAccessible } from './support/accessibility';
import { PEOPLE } from './support/people';
import { callApi } from './support/seed';
import { signIn } from './support/session';

interface MemberList {
  members: { user_id: string; email: string }[];
}

test('a person of no tenant sees their invitations only, declines one, accepts the other and lands in that tenant', async ({ page, baseUrlOfRuntime }) => {
  // The newcomer leaves tenant B; tenant A invites them as operator, and B invites them back as viewer.
  const { members } = await callApi<MemberList>(baseUrlOfRuntime, 'tenant_b', 'GET', '/members?limit=100');
  const newcomer = members.find((member) => member.email === PEOPLE.newcomer.email)!;
  await callApi(baseUrlOfRuntime, 'tenant_b', 'DELETE', `/members/${newcomer.user_id}`);
  await callApi(baseUrlOfRuntime, 'tenant_a', 'POST', '/members', { email: PEOPLE.newcomer.email, role: 'operator' });
  await callApi(baseUrlOfRuntime, 'tenant_b', 'POST', '/members', { email: PEOPLE.newcomer.email, role: 'viewer' });

  await signIn(page, PEOPLE.newcomer, '/agents');

  // Any page of a tenant sends an invitee to their invitations; the navigation has nothing else.
  await expect(page).toHaveURL(/\/invitations$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Invitations' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText(['Invitations']);
  await expect(page.getByRole('banner')).toContainText('invitee');
  await expect(page.getByRole('row', { name: /tenant_a/ })).toContainText('operator');
  await expect(page.getByRole('row', { name: /tenant_b/ })).toContainText('viewer');
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Decline tenant_b' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'declined' })).toHaveText("You declined tenant_b's invitation.");
  await expect(page.getByRole('row', { name: /tenant_b/ })).toHaveCount(0);

  await page.getByRole('button', { name: 'Accept tenant_a' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'joined' })).toHaveText('You joined tenant_a as operator.');
  await expect(page.getByRole('banner')).toContainText('operator');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' })).toBeVisible();
  await expect(page.getByText('You have no pending invitations.')).toBeVisible();
  await expectAccessible(page);

  const joined = await callApi<MemberList & { members: { email: string; status: string; role: string }[] }>(baseUrlOfRuntime, 'tenant_a', 'GET', '/members?limit=100');
  expect(joined.members.find((member) => member.email === PEOPLE.newcomer.email)).toMatchObject({ status: 'active', role: 'operator' });
});
