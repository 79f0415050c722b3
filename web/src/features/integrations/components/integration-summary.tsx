import type { Integration } from '../api/integrations';

/** Whose credentials they are, in one line: the GitHub login, the Slack bot and team, the mail sender and how it goes out. */
export function accountSummary(integration: Pick<Integration, 'kind'>, account: Record<string, string>): string {
  if (integration.kind === 'github') return account.login ?? '—';
  if (integration.kind === 'slack') {
    const bot = account.bot_user ? `@${account.bot_user}` : '';
    return [bot, account.team].filter(Boolean).join(' in ') || '—';
  }
  const via = account.via === 'ses' ? 'Amazon SES' : account.server;
  return [account.sender, via && `via ${via}`].filter(Boolean).join(' ') || '—';
}

/** Active or revoked, as a badge whose word says it (revoked stands out: agents cannot use it). */
export function IntegrationStatus({ integration }: { integration: Integration }) {
  return <span className={`badge ${integration.status === 'active' ? 'badge-ok' : 'badge-bad'}`}>{integration.status}</span>;
}
