import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { interactionHandler } from '#lib/local/oidc/interactions';
import { LocalAccounts, type LocalUser } from '#lib/local/oidc/local-users';
import { createOidcProvider, DASHBOARD_CLIENT_ID } from '#lib/local/oidc/provider';
import type { ProviderKeys } from '#lib/local/oidc/signing-keys';
import { bearerJwt, userinfoHandler } from '#lib/local/oidc/userinfo';

/** Where the local gateway mounts the provider: the issuer is `<origin>/oidc`. */
export const OIDC_PATH = '/oidc';

/** True for a path the provider serves. */
export function isOidcPath(pathname: string): boolean {
  return pathname === OIDC_PATH || pathname.startsWith(`${OIDC_PATH}/`);
}

export type OidcRequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

export interface LocalOidc {
  issuer: string;
  clientId: string;
  handle: OidcRequestHandler;
  provider: Provider;
}

/**
 * The embedded OpenID provider on `origin` (the gateway's own), as one request handler for the
 * paths under `/oidc`: our sign-in page and userinfo for the API's tokens, everything else the
 * provider's (discovery, jwks, authorize, token, end session). `extraClients` are further public
 * clients on the same origin (tests use one to get a token for another audience).
 */
export function createLocalOidc(options: { origin: string; users: LocalUser[]; keys: ProviderKeys; extraClients?: string[] }): LocalOidc {
  const issuer = `${options.origin}${OIDC_PATH}`;
  const accounts = new LocalAccounts(options.users);
  const clients = [DASHBOARD_CLIENT_ID, ...(options.extraClients ?? [])];
  // The same server answers on localhost: a dashboard opened there signs in too.
  const origins = [options.origin, options.origin.replace('//127.0.0.1:', '//localhost:')].filter((origin, index, all) => all.indexOf(origin) === index);
  const provider = createOidcProvider({ issuer, apiResource: `${options.origin}/v1`, accounts, keys: options.keys, clients, origins });
  const interactions = interactionHandler(provider, accounts);
  const userinfo = userinfoHandler(issuer, options.keys, accounts);
  const callback = provider.callback();

  const serve = async (request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? '/';
    const path = new URL(url, options.origin).pathname.slice(OIDC_PATH.length) || '/';
    const token = path === '/me' ? bearerJwt(request) : undefined;
    if (token) return userinfo(token, response);
    if (await interactions(request, response, path)) return;
    // Mounted as express mounts it: the provider finds its mount path from `originalUrl`.
    Object.assign(request, { originalUrl: url, url: url.slice(OIDC_PATH.length) || '/' });
    await callback(request, response);
  };
  const handle: OidcRequestHandler = (request, response) => {
    serve(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end('The sign-in service failed. Try again.');
    });
  };
  return { issuer, clientId: DASHBOARD_CLIENT_ID, handle, provider };
}
