#!/usr/bin/env node
/**
 * Manages tenants' plans on any Gatehouse deployment (billing lives outside Gatehouse; an operator
 * or a billing hook runs this).
 *
 *   npm run tenants -- show --tenant acme
 *   npm run tenants -- set-plan --tenant acme --plan pro
 *
 * `set-plan` stores the plan and then applies the resulting retention to the tenant's existing
 * artifacts right here, page by page (the same job the API queues after PATCH /settings/retention).
 * Interrupted, it is simply run again: it continues until every artifact carries the new expiry.
 *
 * Target: `--local` (the runtime started by `npm start`, found through its data dir), or a
 * deployed stack through `--table <name>` / TABLE_NAME and the usual AWS credentials and region.
 */
import { parseArgs } from 'node:util';
import { fail, TARGET_OPTIONS, tenantOption, useDeployment } from './deployment-target';
import { isPlan, PLANS, renderRetention } from '#shared/domain/retention';
import { setPlan } from '#shared/services/retention';
import { loadSettings } from '#shared/services/tenant-settings';
import { runRestamp } from '#shared/services/retention-restamp';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const usage = `usage: npm run tenants -- <show --tenant T | set-plan --tenant T --plan ${PLANS.join('|')}> [--local | --table NAME]`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { tenant: { type: 'string' }, plan: { type: 'string' }, ...TARGET_OPTIONS },
});

useDeployment(values);

const [command] = positionals;
if (command !== 'show' && command !== 'set-plan') fail(usage);
const tenantId = tenantOption(command, values.tenant);

/** What `show` prints and `set-plan` ends with. */
async function describe(): Promise<void> {
  const settings = await loadSettings(tenantId!);
  const applied = (settings.restamped_version ?? 0) >= settings.version;
  console.log(JSON.stringify({ tenant_id: tenantId, ...renderRetention(settings), version: settings.version, existing_artifacts: applied ? 'up to date' : 'update pending' }, null, 2));
}

if (command === 'show') {
  await describe();
} else {
  if (!isPlan(values.plan)) fail(`set-plan needs --plan, one of ${PLANS.join(', ')}.`);
  const settings = await setPlan(tenantId, values.plan);
  if ((settings.restamped_version ?? 0) < settings.version) {
    let updated = 0;
    let status = 'done';
    let job: Parameters<typeof runRestamp>[0] | undefined = { tenant_id: tenantId, version: settings.version };
    while (job) {
      job = await runRestamp(job, {
        maxPages: 10,
        onPage: (progress) => {
          updated += progress.counts.updated;
          status = progress.status;
        },
      });
    }
    if (status === 'outdated') console.error('The settings changed again meanwhile; the newer change applies itself.');
    else console.error(`Applied the retention to existing artifacts (${updated} updated).`);
  }
  await describe();
}
