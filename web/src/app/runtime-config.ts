/** `/config.json`: where the API is and how people sign in; written by whoever serves the app. */
export interface RuntimeConfig {
  apiBaseUrl: string;
  /** Whether this deployment receives mail for mail triggers (false where SES receives no mail); absent means true. */
  inboundMail: boolean;
  oidc: { issuer: string; clientId: string; scope: string; logoutUrl?: string };
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** Reads and checks /config.json; a broken one is an error in words, not a blank page. */
export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  const response = await fetch('/config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`The dashboard's configuration (/config.json) answered ${response.status}.`);
  const body = (await response.json()) as Partial<RuntimeConfig>;
  const oidc = body.oidc;
  if (!isText(body.apiBaseUrl) || !oidc || !isText(oidc.issuer) || !isText(oidc.clientId)) {
    throw new Error("The dashboard's configuration (/config.json) lacks apiBaseUrl, oidc.issuer or oidc.clientId.");
  }
  return { apiBaseUrl: body.apiBaseUrl, inboundMail: body.inboundMail !== false, oidc: { issuer: oidc.issuer, clientId: oidc.clientId, scope: oidc.scope ?? 'openid email profile', logoutUrl: oidc.logoutUrl } };
}
