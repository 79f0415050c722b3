import { expect, type Page } from '@playwright/test';
import type { Person } from './people';

/** Signs in as a person would: open the dashboard, fill in the provider's form, land signed in. */
export async function signIn(page: Page, person: Person, path = '/agents'): Promise<void> {
  await page.goto(path);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(page.getByRole('banner')).toContainText(person.email);
}
