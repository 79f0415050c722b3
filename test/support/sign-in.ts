import { createHash, randomBytes } from 'node:crypto';

/**
 * Signs a person in to the local runtime's OpenID provider over HTTP, as a browser and the
 * dashboard would: authorization request with PKCE (S256), the sign-in form, consent, the
 * callback's code, and the token endpoint. Returns the tokens; `signIn` the access token alone.
 * `baseUrl` is the runtime's origin or its API base URL (`http://127.0.0.1:<port>/v1`).
 */
export interface SignInOptions {
  clientId?: string;
  /** Defaults to `<origin>/oidc`. */
  issuer?: string;
  scope?: string;
}

export interface SignInResult {
  accessToken: string;
  idToken: string;
  /** The last sign-in page's HTML when the password was refused. */
  refusedPage?: string;
}

/** A cookie jar small enough for a test: every cookie goes to every path of the one origin. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const name = pair.slice(0, pair.indexOf('=')).trim();
      const value = pair.slice(pair.indexOf('=') + 1).trim();
      const expired = attributes.some((attribute) => /^\s*expires=/i.test(attribute) && Date.parse(attribute.split('=')[1]) < Date.now());
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

async function step(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), Cookie: jar.header() }, signal: AbortSignal.timeout(15_000) });
  jar.take(response);
  return response;
}

/** Follows redirects by hand (keeping cookies) until one leaves for `stopAt`, or a page answers. */
async function follow(jar: CookieJar, response: Response, stopAt: string): Promise<{ response: Response; location?: string }> {
  let current = response;
  for (let hops = 0; hops < 10; hops++) {
    const location = current.headers.get('location');
    if (current.status < 300 || current.status >= 400 || !location) return { response: current };
    const next = new URL(location, current.url).href;
    if (next.startsWith(stopAt)) return { response: current, location: next };
    current = await step(jar, next);
  }
  throw new Error('too many redirects in the sign-in flow');
}

export async function signInFlow(baseUrl: string, email: string, password: string, options: SignInOptions = {}): Promise<SignInResult> {
  const origin = new URL(baseUrl).origin;
  const issuer = options.issuer ?? `${origin}/oidc`;
  const clientId = options.clientId ?? 'gatehouse-dashboard';
  const redirectUri = `${new URL(issuer).origin}/callback`;
  const discovery = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as { authorization_endpoint: string; token_endpoint: string };
  const verifier = base64url(randomBytes(32));
  const state = base64url(randomBytes(12));
  const authorize = new URL(discovery.authorization_endpoint);
  authorize.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: options.scope ?? 'openid email profile',
    state,
    nonce: base64url(randomBytes(12)),
    code_challenge: base64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
  }).toString();
  const jar = new CookieJar();

  const form = await follow(jar, await step(jar, authorize.href), redirectUri);
  const page = await form.response.text();
  const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
  if (!action) throw new Error(`no sign-in form (status ${form.response.status}): ${page.slice(0, 300)}`);
  const submitted = await step(jar, new URL(action, form.response.url).href, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password }).toString(),
  });
  const callback = await follow(jar, submitted, redirectUri);
  if (!callback.location) return { accessToken: '', idToken: '', refusedPage: await callback.response.text() };
  const returned = new URL(callback.location).searchParams;
  if (returned.get('state') !== state || !returned.get('code')) throw new Error(`sign-in did not return a code: ${callback.location}`);

  const tokenResponse = await fetch(discovery.token_endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: returned.get('code')!, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier }).toString(),
  });
  const tokens = (await tokenResponse.json()) as { access_token?: string; id_token?: string; error?: string };
  if (!tokenResponse.ok || !tokens.access_token) throw new Error(`token endpoint: ${tokenResponse.status} ${JSON.stringify(tokens)}`);
  return { accessToken: tokens.access_token, idToken: tokens.id_token ?? '' };
}

/** The access token of a person signed in with `email` and `password` (throws when refused). */
export async function signIn(baseUrl: string, email: string, password: string, options: SignInOptions = {}): Promise<string> {
  const result = await signInFlow(baseUrl, email, password, options);
  if (result.refusedPage !== undefined) throw new Error(`sign-in of ${email} was refused`);
  return result.accessToken;
}
