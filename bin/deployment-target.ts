import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the operator CLIs (keys, tenants) share: which deployment they talk to, and how they refuse
 * bad usage. Target: `--local` (the runtime started by `npm start`, found through its data dir's
 * runtime.json), or a deployed stack through `--table <name>` / TABLE_NAME and the usual AWS
 * credentials and region.
 */
export const TARGET_OPTIONS = {
  table: { type: 'string' },
  local: { type: 'boolean', default: false },
  'data-dir': { type: 'string' },
} as const;

/** Prints the message and exits 2: the CLIs' answer to bad usage. */
export function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** Points the data adapters (through their environment) at the chosen deployment. */
export function useDeployment(target: { local?: boolean; table?: string; 'data-dir'?: string }): void {
  if (target.local) {
    const dataDir = target['data-dir'] ?? process.env.GATEHOUSE_DATA_DIR ?? join(process.cwd(), '.gatehouse');
    let runtime: { tableName: string; dynamodb: string };
    try {
      runtime = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8'));
    } catch {
      fail(`No local runtime found in ${dataDir}: start it with npm start first.`);
    }
    Object.assign(process.env, { TABLE_NAME: runtime.tableName, AWS_ENDPOINT_URL_DYNAMODB: runtime.dynamodb, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
  } else if (target.table) {
    process.env.TABLE_NAME = target.table;
  }
}

/** The `--tenant` value of `command`, or exit: 1-64 letters, digits, `_` or `-`. */
export function tenantOption(command: string, tenant: string | undefined): string {
  if (!tenant || !/^[A-Za-z0-9_-]{1,64}$/.test(tenant)) fail(`${command} needs --tenant with 1-64 letters, digits, _ or -.`);
  return tenant;
}
