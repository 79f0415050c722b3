/**
 * A fresh webhook signing secret: 32 random bytes as base64url (43 characters, printable ASCII
 * without spaces, as the API asks). The API takes the secret from its client and never returns
 * it, so the dashboard makes one and shows it once.
 */
export function newSigningSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
