import { assertReachableProvider, smtpUrl } from '#shared/services/integration-connection';
import { createIssue, gitHubClient, listFiles, readFile } from '#shared/adapters/providers/github';
import { postMessage, slackClient } from '#shared/adapters/providers/slack';
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
      const { api_url } = integration.settings as GitHubSettings;
      await assertReachableProvider(api_url);
      const client = gitHubClient({ token: (credentials as GitHubCredentials).token, apiUrl: api_url });
      const repository = String(args.repository);
      const ref = typeof args.ref === 'string' ? args.ref : undefined;
      if (tool === 'github.list_files') return listFiles(client, repository, ref);
      if (tool === 'github.read_file') return readFile(client, repository, String(args.path), ref);
      return createIssue(client, { repository, title: String(args.title), body: String(args.body ?? ''), ...(Array.isArray(args.labels) ? { labels: args.labels as string[] } : {}), idempotencyKey: key ?? 'unkeyed' });
    }
    case 'slack.post_message': {
      const { api_url } = integration.settings as SlackSettings;
      await assertReachableProvider(api_url);
      return postMessage(slackClient({ botToken: (credentials as SlackCredentials).bot_token, apiUrl: api_url }), { channel: String(args.channel), text: String(args.text) });
    }
    case 'mail.send': {
      const email = credentials as EmailCredentials;
      const { from } = integration.settings as EmailSettings;
      const message = { from, to: String(args.to), subject: String(args.subject), body: String(args.body), idempotencyKey: key ?? 'unkeyed' };
      if ('ses' in email) return { ...(await mailer().send(message)), to: message.to, via: 'ses' };
      await assertReachableProvider(smtpUrl(email));
      return { ...(await new SmtpMailer(email).send(message)), to: message.to, via: 'smtp' };
    }
    default:
      throw new Error(`No runner for tool '${tool}'.`);
  }
}
