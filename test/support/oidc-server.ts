import { createServer, type Server } from 'node:http';
import type { LocalUser } from '#lib/local/oidc/local-users';
import { createLocalOidc, isOidcPath, type LocalOidc } from '#lib/local/oidc/oidc-handler';
import { providerKeys, type ProviderKeys } from '#lib/local/oidc/signing-keys';

export interface OidcServer {
  origin: string;
  issuer: string;
  keys: ProviderKeys;
  oidc: LocalOidc;
  stop(): Promise<void>;
}

/**
 * The local runtime's OpenID provider alone, on a loopback port of its own: for tests of the
 * authorizer that need real tokens from it, or from a second provider (another issuer). `keys`
 * lets a second provider sign with the first one's key, so only the issuer tells them apart.
 */
export async function startOidcServer(users: LocalUser[], options: { extraClients?: string[]; keys?: ProviderKeys } = {}): Promise<OidcServer> {
  let oidc: LocalOidc | undefined;
  const server: Server = createServer((request, response) => {
    if (oidc && isOidcPath(new URL(request.url ?? '/', 'http://127.0.0.1').pathname)) return oidc.handle(request, response);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const keys = options.keys ?? (await providerKeys(undefined));
  oidc = createLocalOidc({ origin, users, keys, extraClients: options.extraClients });
  return {
    origin,
    issuer: oidc.issuer,
    keys,
    oidc,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
