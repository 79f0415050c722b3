import { readFile } from 'node:fs/promises';
import { startTestSite, type TestSite } from '../support/test-site-server';
import { expect, test } from './support/fixtures';
import { expectAccessible } from './support/accessibility';
import { PEOPLE } from './support/people';
import { callApi } from './support/seed';
import { signIn } from './support/session';

let site: TestSite;

test.beforeAll(async () => {
  // The runtime allows loopback scan targets locally, so the bundled test site can be scanned.
  site = await startTestSite();
});

test.afterAll(async () => {
  await site?.close();
});

test('create a project, run a scan, triage a finding and download the reports', async ({ page, baseURL }) => {
  test.setTimeout(240_000);
  await signIn(page, PEOPLE.adminA, '/scans');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Scans');

  await page.getByRole('button', { name: 'Create project' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Browser test site');
  await dialog.getByLabel('Target URL').fill(site.url);
  await dialog.getByLabel('Pages to crawl at most (1–50)').fill('5');
  await dialog.getByLabel('Seconds to wait per page (1–30)').fill('2');
  await dialog.getByLabel('Never follow links to these paths').fill('/slow.html\n/*.pdf$');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Create project' }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Browser test site');
  await expect(page.getByText('No scans yet')).toBeVisible();
  await expect(page.getByLabel('Never follow links to these paths')).toHaveValue('/slow.html\n/*.pdf$');
  await expect(page.getByLabel("Obey the site's robots.txt", { exact: false })).toBeChecked();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Run scan' }).click();

  await expect(page).toHaveURL(/\/scans\/scn_/);
  await expect(page.getByRole('heading', { name: 'Findings' })).toBeVisible({ timeout: 150_000 });
  await expect(page.getByText('completed', { exact: true }).first()).toBeVisible();
  await expect(page.getByText(/of 100, (low|medium|high|critical)/).first()).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel('Detector').selectOption('accessibility');
  await page.getByLabel('Search findings').fill('image-alt');
  const rows = page.getByRole('table', { name: 'Findings, most severe first' }).getByRole('row');
  await expect(rows.nth(1)).toContainText('accessibility.image-alt');
  await rows.nth(1).getByRole('button', { name: /^Dismiss/ }).click();
  const dismiss = page.getByRole('dialog');
  await dismiss.getByLabel('Reason').selectOption('accepted_risk');
  await dismiss.getByLabel('Comment (optional)').fill('Decorative images on the demo site.');
  await dismiss.getByRole('button', { name: 'Dismiss finding' }).click();
  await expect(dismiss).toBeHidden();
  await page.getByLabel('Status').selectOption('dismissed');
  await expect(rows).toHaveCount(2);
  const scanId = page.url().match(/scn_[a-z0-9]+/)![0];
  const { data } = await callApi<{ data: { id: string; rule_id: string; status: string; dismissed_reason?: string; comment?: string }[] }>(baseURL!, 'tenant_a', 'GET', `/scans/${scanId}/findings?detector=accessibility&limit=200`);
  expect(data.filter((finding) => finding.status === 'dismissed')).toEqual([expect.objectContaining({ rule_id: 'accessibility.image-alt', dismissed_reason: 'accepted_risk', comment: 'Decorative images on the demo site.' })]);

  for (const [label, check] of [
    ['SARIF', (text: string) => expect(JSON.parse(text)).toMatchObject({ version: '2.1.0' })],
    ['CSV', (text: string) => expect(text.split('\n')[0]).toContain('rule_id')],
    ['JSON', (text: string) => expect(JSON.parse(text)).toMatchObject({ scan_id: scanId })],
    ['PDF', (text: string) => expect(text.startsWith('%PDF-')).toBe(true)],
  ] as const) {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: `Download ${label}` }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(new RegExp(`\\.${label.toLowerCase()}$`));
    check(await readFile((await file.path())!, 'utf8'));
  }

  await rows.nth(1).getByRole('link', { name: 'History of rule accessibility.image-alt' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('History of accessibility.image-alt');
  await expect(page.getByRole('table')).toContainText('open');
  await expectAccessible(page);

  // The scan's life is in the event log: the Events page's scan group shows its end.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Events' }).click();
  await page.getByLabel('Type').selectOption({ label: 'All scan events' });
  await page.getByRole('button', { name: 'Show events' }).click();
  const log = page.getByRole('table');
  await expect(log.getByText('scan.created', { exact: true }).first()).toBeVisible();
  await expect(log.getByText('scan.completed', { exact: true }).first()).toBeVisible();
  await expect(log.getByRole('link', { name: `Scan ${scanId}` }).first()).toBeVisible();
  await expectAccessible(page);
});

test('a viewer sees projects and scans but cannot create, run or dismiss', async ({ page, baseURL }) => {
  const project = await callApi<{ project_id: string }>(baseURL!, 'tenant_a', 'POST', '/projects', { name: 'Viewer project', target: site.url, crawl: { max_pages: 1 } });
  await signIn(page, PEOPLE.viewerA, `/scans/projects/${project.project_id}`);

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Viewer project');
  await expect(page.getByRole('button', { name: 'Run scan' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Save settings' })).toBeDisabled();
  await expect(page.getByText('Needs the operator role; you are a viewer.')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: 'All projects' }).click();
  await expect(page.getByRole('link', { name: 'Viewer project' }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create project' })).toHaveCount(0);
  await expectAccessible(page);
});
