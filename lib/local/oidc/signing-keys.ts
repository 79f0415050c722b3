import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

/** The provider's secrets: the RS256 key that signs tokens, and the keys that sign its cookies. */
export interface ProviderKeys {
  jwks: { keys: JWK[] };
  cookieKeys: string[];
}

async function freshKeys(): Promise<ProviderKeys> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  return { jwks: { keys: [{ ...jwk, alg: 'RS256', use: 'sig', kid: randomBytes(8).toString('hex') }] }, cookieKeys: [randomBytes(32).toString('base64url')] };
}

/**
 * The provider's keys, kept in `<data dir>/oidc-keys.json` (mode 0600, beside the data they give
 * access to) so that tokens and sign-in sessions survive a restart. Without a data dir (in-memory
 * runtimes, tests) every start has fresh ones.
 */
export async function providerKeys(dataDir: string | undefined): Promise<ProviderKeys> {
  if (!dataDir) return freshKeys();
  const file = join(dataDir, 'oidc-keys.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as ProviderKeys;
  const keys = await freshKeys();
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  chmodSync(file, 0o600);
  return keys;
}
