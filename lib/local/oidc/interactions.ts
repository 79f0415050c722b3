import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider, { errors } from 'oidc-provider';
import type { LocalAccounts } from '#lib/local/oidc/local-users';
import { errorPage, PAGE_CSP, signInPage } from '#lib/local/oidc/pages';
import { INTERACTION_PATH } from '#lib/local/oidc/provider';

/** A sign-in form is a few hundred bytes; anything much larger is not one. */
const MAX_FORM_BYTES = 16 * 1024;

function sendPage(response: ServerResponse, status: number, html: string): void {
  response.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': PAGE_CSP,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  });
  response.end(html);
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Our side of the provider's interactions (`<issuer>/interaction/<uid>`): the sign-in page and its
 * form, and consent, granted without asking because every client of this provider is our own
 * dashboard. Returns false for a path that is not an interaction's, for the provider to serve.
 */
export function interactionHandler(provider: Provider, accounts: LocalAccounts) {
  return async (request: IncomingMessage, response: ServerResponse, path: string): Promise<boolean> => {
    const match = new RegExp(`^${INTERACTION_PATH}/([A-Za-z0-9_-]+)(/login)?$`).exec(path);
    if (!match) return false;
    const method = request.method ?? 'GET';
    const [, uid, login] = match;
    const action = `${new URL(provider.issuer).pathname}${INTERACTION_PATH}/${uid}/login`;
    try {
      const details = await provider.interactionDetails(request, response);
      if (details.uid !== uid) throw new errors.SessionNotFound('interaction mismatch');
      if (!login && method === 'GET' && details.prompt.name === 'login') {
        sendPage(response, 200, signInPage(action));
      } else if (!login && method === 'GET' && details.prompt.name === 'consent') {
        await grantConsent(provider, details, request, response);
      } else if (login && method === 'POST' && details.prompt.name === 'login') {
        const form = await readForm(request);
        const email = form?.get('email') ?? '';
        const sub = accounts.signIn(email, form?.get('password') ?? '');
        if (!sub) sendPage(response, 401, signInPage(action, { email, error: 'The email or password is wrong. Check them and try again.' }));
        else await provider.interactionFinished(request, response, { login: { accountId: sub } }, { mergeWithLastSubmission: false });
      } else {
        sendPage(response, 405, errorPage('This page only shows the sign-in form. Go back to the dashboard and sign in again.'));
      }
    } catch (error) {
      if (!(error instanceof errors.SessionNotFound)) throw error;
      sendPage(response, 400, errorPage('This sign-in has expired or was already used. Go back to the dashboard and sign in again.'));
    }
    return true;
  };
}

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/** Grants what the client asked for (scopes, claims, the API's resource) and resumes the flow. */
async function grantConsent(provider: Provider, details: Interaction, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const { prompt, params, session } = details;
  const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId: session!.accountId, clientId: params.client_id as string });
  if (!grant) throw new errors.SessionNotFound('grant not found');
  const missing = prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
  const grantId = await grant.save();
  await provider.interactionFinished(request, response, { consent: details.grantId ? {} : { grantId } }, { mergeWithLastSubmission: true });
}
