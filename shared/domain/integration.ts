/**
 * A tenant's connection to a provider (code host, team chat, mail). Its credentials are stored
 * encrypted and only the tool proxy decrypts them; nothing here or in any answer carries them.
 */
export const INTEGRATION_KINDS = ['github', 'slack', 'email'] as const;
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number];

export interface GitHubCredentials {
  token: string;
}
export interface SlackCredentials {
  bot_token: string;
  /** Given at connect; sealed apart (`signing_secret_ciphertext`), so opened credentials lack it. */
  signing_secret?: string;
}
export type SmtpCredentials = { host: string; port: number; username?: string; password?: string; secure: boolean };
export type EmailCredentials = SmtpCredentials | { ses: true };
export type IntegrationCredentials = GitHubCredentials | SlackCredentials | EmailCredentials;

export interface GitHubSettings {
  api_url: string;
}
export interface SlackSettings {
  api_url: string;
  approvals_channel?: string;
  approvers?: string[];
}
export interface EmailSettings {
  from: string;
}
export type IntegrationSettings = GitHubSettings | SlackSettings | EmailSettings;

export const DEFAULT_API_URLS = { github: 'https://api.github.com', slack: 'https://slack.com/api' } as const;

export interface Integration {
  integration_id: string;
  tenant_id: string;
  kind: IntegrationKind;
  name: string;
  status: 'active' | 'revoked';
  /** Who the credentials belong to, as the provider said at connect time. */
  account: Record<string, string>;
  settings: IntegrationSettings;
  /**
   * The credentials with the provider URL they were checked against, encrypted under
   * `credentialContext` (envelope encryption on AWS); integration-seal.ts says what is sealed.
   */
  credentials_ciphertext: string;
  /** Slack: the signing secret alone, encrypted under `signingSecretContext`; absent on records sealed before it. */
  signing_secret_ciphertext?: string;
  created_at: string;
  updated_at: string;
  last_used_at: string | null;
  revoked_at?: string;
  revoked_reason?: string;
}

/** Binds a ciphertext to its integration: copied onto another record, it does not decrypt. */
export function credentialContext(integration: Pick<Integration, 'tenant_id' | 'integration_id'>): Record<string, string> {
  return { tenant_id: integration.tenant_id, integration_id: integration.integration_id, purpose: 'integration-credentials' };
}

/** What the API answers: never the ciphertext. */
export function renderIntegration(integration: Integration) {
  return {
    integration_id: integration.integration_id,
    kind: integration.kind,
    name: integration.name,
    status: integration.status,
    account: integration.account,
    settings: integration.settings,
    created_at: integration.created_at,
    updated_at: integration.updated_at,
    last_used_at: integration.last_used_at,
    ...(integration.revoked_at ? { revoked_at: integration.revoked_at, revoked_reason: integration.revoked_reason } : {}),
  };
}
