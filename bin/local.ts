#!/usr/bin/env node
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
/**
 * `npm start`: the whole Gatehouse topology on this machine. Configuration by environment:
 * PORT, GATEHOUSE_DATA_DIR, GATEHOUSE_IN_MEMORY, GATEHOUSE_API_KEYS, GATEHOUSE_USERS, GATEHOUSE_DEFAULT_PLAN and
 * more (docs/configuration.md).
 */
import { startRuntime, parseApiKeys, defaultDataDir } from '#lib/local/runtime';
import { parseLocalUsers } from '#lib/local/oidc/local-users';
import { defaultPlan } from '#shared/services/tenant-settings';
import { ensureDashboardBuilt } from '#lib/bundling/dashboard-build';

// Fail at start, not at the first request, when GATEHOUSE_DEFAULT_PLAN names no plan.
defaultPlan();

// The dashboard is served from web/dist: (re)built here when its sources changed.
const dashboard = await ensureDashboardBuilt();
console.log(dashboard.built ? `Built the dashboard into ${dashboard.dist}` : `Dashboard is up to date in ${dashboard.dist}`);

const port = Number(process.env.PORT ?? 3000);
const runtime = await startRuntime({
  port,
  dataDir: process.env.GATEHOUSE_DATA_DIR ?? defaultDataDir(),
  inMemory: process.env.GATEHOUSE_IN_MEMORY === '1',
  apiKeys: parseApiKeys(process.env.GATEHOUSE_API_KEYS),
  users: parseLocalUsers(process.env.GATEHOUSE_USERS),
});

console.log(`Gatehouse is listening on ${runtime.baseUrl}`);
if (runtime.devKey) {
  console.log(`Dev API key for tenant 'dev' (${runtime.devKeyFile ? `kept in ${runtime.devKeyFile}` : 'shown once'}): ${runtime.devKey}`);
  console.log(`Try: curl -H "Authorization: Bearer ${runtime.devKey}" ${runtime.baseUrl}/agents`);
}
const { devUser } = runtime;
if (devUser?.password) console.log(`Sign in as ${devUser.email} with password ${devUser.password} (${devUser.file ? `kept in ${devUser.file}` : 'shown once'}).`);
else if (devUser) console.log(`Sign in as ${devUser.email}; its password is kept in ${devUser.file}.`);
console.log(`OpenID provider (sign-in): ${runtime.oidcIssuer}`);
console.log(`Mail triggers receive mail by SMTP on 127.0.0.1:${runtime.smtpPort} (addresses @${runtime.inboundDomain}).`);

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping Gatehouse…`);
  await runtime.stop();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
