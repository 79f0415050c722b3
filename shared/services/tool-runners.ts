import { pinnedGitHub, pinnedSlack, pinnedSmtp } from '#shared/services/integration-connection';
import { createIssue, listFiles, readFile } from '#shared/adapters/providers/github';
import { postMessage } from '#shared/adapters/providers/slack';
import { SmtpMailer } from '#shared/adapters/providers/smtp';
import { mailer } from '#shared/adapters/mail/mailer';
import type { EmailCredentials, EmailSettings, GitHubCredentials, GitHubSettings, Integration, IntegrationCredentials, SlackCredentials, SlackSettings } from '#shared/domain/integration';

/**
 * What each tool does with its integration's credentials. `key` is the approval id for tools that
 * act: it makes a retried action recognisable at the provider (Message-ID, an issue marker).
 */
export async function runTool(tool: string, args: Record<string, unknown>, integration: Integration, credentials: IntegrationCredentials, key?: string): Promise<Record<string, unknown>> {
  switch (tool) {
    case 'github.list_files':
    case 'github.read_file':
    case 'github.create_issue': {
      const client = await pinnedGitHub((integration.settings as GitHubSettings).api_url, (credentials as GitHubCredentials).token);
      const repository = String(args.repository);
      const ref = typeof args.ref === 'string' ? args.ref : undefined;
      if (tool === 'github.list_files') return listFiles(client, repository, ref);
      if (tool === 'github.read_file') return readFile(client, repository, String(args.path), ref);
      return createIssue(client, { repository, title: String(args.title), body: String(args.body ?? ''), ...(Array.isArray(args.labels) ? { labels: args.labels as string[] } : {}), idempotencyKey: key ?? 'unkeyed' });
    }
    case 'slack.post_message': {
      return postMessage(await pinnedSlack((integration.settings as SlackSettings).api_url, (credentials as SlackCredentials).bot_token), { channel: String(args.channel), text: String(args.text) });
    }
    case 'mail.send': {
      const email = credentials as EmailCredentials;
      const { from } = integration.settings as EmailSettings;
      const message = { from, to: String(args.to), subject: String(args.subject), body: String(args.body), idempotencyKey: key ?? 'unkeyed' };
      if ('ses' in email) return { ...(await mailer().send(message)), to: message.to, via: 'ses' };
      return { ...(await new SmtpMailer(email, await pinnedSmtp(email)).send(message)), to: message.to, via: 'smtp' };
    }
    default:
      throw new Error(`No runner for tool '${tool}'.`);
  }
}
