import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureLocalMember } from '#shared/services/members';
import { DEV_USER_EMAIL, devUser, generatePassword, type LocalUser } from '#lib/local/oidc/local-users';
import { createLocalOidc, type LocalOidc } from '#lib/local/oidc/oidc-handler';
import { providerKeys, type ProviderKeys } from '#lib/local/oidc/signing-keys';

export interface DevUser {
  email: string;
  /** Only when it was just made: shown once, then read from `file`. */
  password?: string;
  /** Where the password is kept between starts (not when nothing persists). */
  file?: string;
}

export interface LocalSignIn {
  devUser?: DevUser;
  /** The provider on the gateway's origin, once it listens (the issuer names its port). */
  start(origin: string): LocalOidc;
}

/**
 * The dev user's password: the one kept in `<data dir>/dev-user` (mode 0600, as the dev key is)
 * when there is one, otherwise a fresh one, written there. Without a data dir, fresh every start.
 */
function devUserPassword(file: string | undefined): { password: string; created: boolean } {
  if (file && existsSync(file)) {
    const password = readFileSync(file, 'utf8').trim().split(':').slice(1).join(':');
    if (password) return { password, created: false };
  }
  const password = generatePassword();
  if (file) {
    writeFileSync(file, `${DEV_USER_EMAIL}:${password}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return { password, created: true };
}

/**
 * Makes the runtime's people what this start is configured with: the users of GATEHOUSE_USERS or,
 * when it lists none, the dev user (`dev@gatehouse.local`, admin of tenant `dev`). Each becomes
 * a member of their tenant now, so they can sign in at once. The provider's keys are read (or
 * made) here too; the provider itself starts once the gateway listens.
 */
export async function prepareLocalSignIn(configured: LocalUser[], dataDir: string | undefined): Promise<LocalSignIn> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const devUserFile = dataDir ? join(dataDir, 'dev-user') : undefined;
  let users = configured;
  let shown: DevUser | undefined;
  if (configured.length === 0) {
    const { password, created } = devUserPassword(devUserFile);
    users = [devUser(password)];
    shown = { email: DEV_USER_EMAIL, ...(created ? { password } : {}), ...(devUserFile ? { file: devUserFile } : {}) };
  } else if (devUserFile) {
    // The dev user cannot sign in while GATEHOUSE_USERS is set: no password of it stays on disk.
    rmSync(devUserFile, { force: true });
  }
  for (const user of users) await ensureLocalMember(user);
  const keys: ProviderKeys = await providerKeys(dataDir);
  return { devUser: shown, start: (origin) => createLocalOidc({ origin, users, keys }) };
}
