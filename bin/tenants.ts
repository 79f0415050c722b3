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
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { isPlan, PLANS, renderRetention } from '#shared/domain/retention';
import { setPlan } from '#shared/services/retention';
import { loadSettings } from '#shared/services/tenant-settings';
import { runRestamp } from '#shared/services/retention-restamp';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const usage = `usage: npm run tenants -- <show --tenant T | set-plan --tenant T --plan ${PLANS.join('|')}> [--local | --table NAME]`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { tenant: { type: 'string' }, plan: { type: 'string' }, table: { type: 'string' }, local: { type: 'boolean', default: false }, 'data-dir': { type: 'string' } },
});

if (values.local) {
  const dataDir = values['data-dir'] ?? process.env.GATEHOUSE_DATA_DIR ?? join(process.cwd(), '.gatehouse');
  let runtime: { tableName: string; dynamodb: string };
  try {
    runtime = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8'));
  } catch {
    fail(`No local runtime found in ${dataDir}: start it with npm start first.`);
  }
  Object.assign(process.env, { TABLE_NAME: runtime.tableName, AWS_ENDPOINT_URL_DYNAMODB: runtime.dynamodb, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
} else if (values.table) {
  process.env.TABLE_NAME = values.table;
}

const [command] = positionals;
if (command !== 'show' && command !== 'set-plan') fail(usage);
const tenantId = values.tenant;
if (!tenantId || !/^[A-Za-z0-9_-]{1,64}$/.test(tenantId)) fail(`${command} needs --tenant with 1-64 letters, digits, _ or -.`);

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
