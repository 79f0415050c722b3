#!/usr/bin/env node
/**
 * Manages API keys of any Gatehouse deployment.
 *
 *   npm run keys -- create --tenant acme      prints the new key once
 *   npm run keys -- list [--tenant acme]
 *   npm run keys -- revoke key_01...
 *
 * Target: `--local` (the runtime started by `npm start`, found through its data dir), or a
 * deployed stack through `--table <name>` / TABLE_NAME and the usual AWS credentials and region.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApiKey, listApiKeys, revokeApiKey } from '#shared/services/api-keys';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const usage = 'usage: npm run keys -- <create --tenant T | list [--tenant T] | revoke KEY_ID> [--local | --table NAME]';
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { tenant: { type: 'string' }, table: { type: 'string' }, local: { type: 'boolean', default: false }, 'data-dir': { type: 'string' } },
});

if (values.local) {
  const dataDir = values['data-dir'] ?? process.env.GATEHOUSE_DATA_DIR ?? join(process.cwd(), '.gatehouse');
  let runtime: { tableName: string; dynamodb: string };
  try {
    runtime = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8'));
  } catch {
    console.error(`No local runtime found in ${dataDir}: start it with npm start first.`);
    process.exit(2);
  }
  Object.assign(process.env, { TABLE_NAME: runtime.tableName, AWS_ENDPOINT_URL_DYNAMODB: runtime.dynamodb, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
} else if (values.table) {
  process.env.TABLE_NAME = values.table;
}

const [command, argument] = positionals;
switch (command) {
  case 'create': {
    if (!values.tenant || !/^[A-Za-z0-9_-]{1,64}$/.test(values.tenant)) {
      console.error('create needs --tenant with 1-64 letters, digits, _ or -.');
      process.exit(2);
    }
    const { key, record } = await createApiKey(values.tenant);
    console.log(JSON.stringify({ key_id: record.key_id, tenant_id: record.tenant_id, created_at: record.created_at }, null, 2));
    console.log(`API key (shown once, store it now): ${key}`);
    break;
  }
  case 'list': {
    const keys = await listApiKeys(values.tenant);
    console.table(keys.map(({ key_id, tenant_id, display_prefix, created_at, last_used_at, revoked_at }) => ({ key_id, tenant_id, display_prefix, created_at, last_used_at: last_used_at ?? '', revoked_at: revoked_at ?? '' })));
    break;
  }
  case 'revoke': {
    if (!argument) {
      console.error(usage);
      process.exit(2);
    }
    const record = await revokeApiKey(argument);
    console.log(`Revoked ${record.key_id} of tenant ${record.tenant_id} at ${record.revoked_at}.`);
    break;
  }
  default:
    console.error(usage);
    process.exit(2);
}
