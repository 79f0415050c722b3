/**
 * Builds the dashboard (web/) with Vite when its output is missing or older than its sources, so
 * `npm start`, the browser tests and `cdk synth` never serve or upload a stale app and nobody has
 * to remember a build command.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));
export const WEB_DIR = join(repositoryRoot, 'web');
export const DASHBOARD_DIST_DIR = join(WEB_DIR, 'dist');
/** Files outside web/ that the app imports (the role rule it shares with the API). */
const SHARED_INPUTS = [join(repositoryRoot, 'shared/domain/roles.ts')];

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (path === WEB_DIR && (entry === 'dist' || entry === 'node_modules')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** Whether web/dist is missing or older than any source of the app. */
export function dashboardIsStale(): boolean {
  const index = join(DASHBOARD_DIST_DIR, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return [WEB_DIR, ...SHARED_INPUTS].some((input) => newestMtime(input) > built);
}

function viteCommand(): string[] {
  const vitePackage = createRequire(import.meta.url).resolve('vite/package.json');
  return [join(dirname(vitePackage), 'bin/vite.js'), 'build', '--config', join(WEB_DIR, 'vite.config.ts'), '--logLevel', 'warn'];
}

/** Builds web/ if stale (synchronously: CDK apps are synchronous) and answers the dist path. */
export function ensureDashboardBuiltSync(): string {
  if (!dashboardIsStale()) return DASHBOARD_DIST_DIR;
  const result = spawnSync(process.execPath, viteCommand(), { cwd: repositoryRoot, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error(`Building the dashboard failed (vite exited with ${result.status ?? result.signal}).`);
  return DASHBOARD_DIST_DIR;
}

/** The same, without blocking the event loop; answers whether it had to build. */
export async function ensureDashboardBuilt(): Promise<{ dist: string; built: boolean }> {
  if (!dashboardIsStale()) return { dist: DASHBOARD_DIST_DIR, built: false };
  const child = spawn(process.execPath, viteCommand(), { cwd: repositoryRoot, stdio: ['ignore', 'inherit', 'inherit'] });
  const code = await new Promise<number | null>((resolve, reject) => child.once('error', reject).once('exit', resolve));
  if (code !== 0) throw new Error(`Building the dashboard failed (vite exited with ${code}).`);
  return { dist: DASHBOARD_DIST_DIR, built: true };
}
