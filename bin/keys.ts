#!/usr/bin/env node
/**
 * Manages API keys of any Gatehouse deployment.
 *
 *   npm run keys -- create --tenant acme [--role viewer] [--name ci]
 *                                             prints the new key once (role: admin unless given)
 *   npm run keys -- list [--tenant acme] [--json]
 *   npm run keys -- revoke key_01...
 *   npm run keys -- limits --tenant acme [--rate 50] [--burst 100] [--tasks 10] [--clear]
 *                                             a tenant's overrides of the limits (docs/limits.md)
 *
 * Target: `--local` (the runtime started by `npm start`, found through its data dir), or a
 * deployed stack through `--table <name>` / TABLE_NAME and the usual AWS credentials and region.
 */
import { parseArgs } from 'node:util';
import { TARGET_OPTIONS, tenantOption, useDeployment } from './deployment-target';
import { NotFoundError } from '#shared/domain/errors';
import { roleOf } from '#shared/domain/api-key';
import { isMemberRole, MEMBER_ROLES } from '#shared/domain/roles';
import { createApiKey, listApiKeys, revokeApiKey } from '#shared/services/api-keys';
import { clearTenantLimits, getTenantLimits, setTenantLimits } from '#shared/services/tenant-limits';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const usage =
  'usage: npm run keys -- <create --tenant T [--role R] [--name N] | list [--tenant T] [--json] | revoke KEY_ID | limits --tenant T [--rate N] [--burst N] [--tasks N] [--clear]> [--local | --table NAME]';
let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      tenant: { type: 'string' },
      role: { type: 'string' },
      name: { type: 'string' },
      ...TARGET_OPTIONS,
      json: { type: 'boolean', default: false },
      rate: { type: 'string' },
      burst: { type: 'string' },
      tasks: { type: 'string' },
      clear: { type: 'boolean', default: false },
    },
  });
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
const { values, positionals } = parsed;

const requireTenant = (command: string) => tenantOption(command, values.tenant);

useDeployment(values);

const [command, argument] = positionals;
switch (command) {
  case 'create': {
    const tenant = requireTenant('create');
    if (values.role !== undefined && !isMemberRole(values.role)) {
      console.error(`--role must be one of ${MEMBER_ROLES.join(', ')} (an agent key is made with POST /v1/api-keys, bound to its agent).`);
      process.exit(2);
    }
    const { key, record } = await createApiKey(tenant, { role: values.role, name: values.name });
    console.log(JSON.stringify({ key_id: record.key_id, tenant_id: record.tenant_id, name: record.name, role: roleOf(record), created_at: record.created_at }, null, 2));
    console.log(`API key (shown once, store it now): ${key}`);
    break;
  }
  case 'list': {
    const keys = await listApiKeys(values.tenant);
    // Never the hash: it is not secret, but nobody needs it.
    const rows = keys.map((record) => ({ key_id: record.key_id, tenant_id: record.tenant_id, role: roleOf(record), display_prefix: record.display_prefix, created_at: record.created_at, last_used_at: record.last_used_at ?? '', revoked_at: record.revoked_at ?? '' }));
    if (values.json) console.log(JSON.stringify(rows, null, 2));
    else console.table(rows);
    break;
  }
  case 'revoke': {
    if (!argument) {
      console.error(usage);
      process.exit(2);
    }
    const record = await revokeApiKey(argument).catch((error: unknown) => {
      if (!(error instanceof NotFoundError)) throw error;
      console.error(`No API key with id '${argument}' exists.`);
      process.exit(1);
    });
    console.log(`Revoked ${record.key_id} of tenant ${record.tenant_id} at ${record.revoked_at}.`);
    break;
  }
  case 'limits': {
    const tenant = requireTenant('limits');
    try {
      if (values.clear) await clearTenantLimits(tenant);
      else if (values.rate !== undefined || values.burst !== undefined || values.tasks !== undefined) {
        await setTenantLimits(tenant, { rate_per_second: values.rate, burst: values.burst, task_concurrency: values.tasks });
      }
    } catch (error) {
      if (!(error instanceof Error) || !/must be an integer/.test(error.message)) throw error;
      console.error(`${error.message} (--rate sets rate_per_second, --burst burst, --tasks task_concurrency)`);
      process.exit(2);
    }
    const record = await getTenantLimits(tenant);
    console.log(JSON.stringify(record ?? { tenant_id: tenant, overrides: 'none: the deployment defaults apply' }, null, 2));
    break;
  }
  default:
    console.error(usage);
    process.exit(2);
}
