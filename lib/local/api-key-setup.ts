import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureApiKey, ensureDevApiKey, revokeManagedApiKeysExcept } from '#shared/services/api-keys';

export interface ApiKeySetup {
  /** The dev key, when GATEHOUSE_API_KEYS lists none. */
  devKey?: string;
  /** Where the dev key is kept between starts (not when nothing persists). */
  devKeyFile?: string;
  /** Keys of earlier starts revoked by this one. */
  revoked: number;
}

/**
 * Makes the runtime's keys what this start is configured with: the keys of GATEHOUSE_API_KEYS,
 * or, when it lists none, one dev key; every other key the runtime once registered is revoked.
 * The dev key's plaintext is kept in `<data dir>/dev-key` (mode 0600, beside the data and the
 * secret key it gives access to) and reused while it is live, so that scripts and shells holding
 * it keep working across restarts, as the data does. `dataDir` is undefined when nothing persists.
 */
export async function setUpApiKeys(listed: { tenantId: string; key: string }[], dataDir: string | undefined): Promise<ApiKeySetup> {
  const devKeyFile = dataDir ? join(dataDir, 'dev-key') : undefined;
  if (listed.length > 0) {
    for (const { tenantId, key } of listed) await ensureApiKey(tenantId, key);
    const revoked = await revokeManagedApiKeysExcept(listed.map(({ key }) => key));
    // The dev key is revoked with the rest: no plaintext of a dead key stays on disk.
    if (devKeyFile) rmSync(devKeyFile, { force: true });
    return { revoked: revoked.length };
  }
  const previous = devKeyFile && existsSync(devKeyFile) ? readFileSync(devKeyFile, 'utf8').trim() : undefined;
  const { key, created } = await ensureDevApiKey(previous);
  if (devKeyFile && created) {
    mkdirSync(dataDir!, { recursive: true });
    writeFileSync(devKeyFile, `${key}\n`, { mode: 0o600 });
    // The mode of writeFileSync applies only to a new file.
    chmodSync(devKeyFile, 0o600);
  }
  const revoked = await revokeManagedApiKeysExcept([key]);
  return { devKey: key, devKeyFile, revoked: revoked.length };
}
