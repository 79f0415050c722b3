import { integrationRepository } from '#shared/adapters/dynamodb/integration-repository';
import { systemClock } from '#shared/domain/clock';
import type { SlackCredentials } from '#shared/domain/integration';
import { parseInteraction, parseSlackEvent } from '#shared/domain/slack/slack-payloads';
import { verifySlackSignature } from '#shared/domain/slack/slack-signature';
import type { SlackHttpAnswer, ToolProxyRequest } from '#shared/domain/tool-proxy';
import { logger } from '#shared/observability/logger';
import { fireChatTriggers } from '#shared/services/chat-triggers';
import { handleApprovalInteraction } from '#shared/services/slack-approvals';
import { credentialsOf, signingSecretOf, ToolCallRefused } from '#shared/services/tool-execution';

const REASONS = { missing: 'X-Slack-Signature and X-Slack-Request-Timestamp are required.', stale: 'The request timestamp is more than 5 minutes from now.', mismatch: 'The signature does not match the body.' } as const;

/**
 * A request Slack sent to `/integrations/{id}/slack/...`: verified with the integration's signing
 * secret (v0 HMAC over the raw body, 5-minute window, constant-time compare) before anything is
 * read, then a button click or modal (interactions) or a channel message (events). Answers quickly:
 * Slack gives up after 3 seconds; what it triggers (message updates, the task) continues async.
 */
export async function answerSlackRequest(request: Extract<ToolProxyRequest, { action: 'slack_request' }>): Promise<SlackHttpAnswer> {
  const tenantId = await integrationRepository.ownerOf(request.integration_id);
  const integration = tenantId ? await integrationRepository.get(tenantId, request.integration_id) : undefined;
  if (!integration || integration.kind !== 'slack') return { refused: 'not_found', detail: 'No slack integration has this id.' };
  // The signing secret alone is opened to check the signature; the bot token only for a request that passed.
  const verdict = verifySlackSignature({
    signingSecret: await signingSecretOf(integration),
    timestamp: request.headers['x-slack-request-timestamp'],
    signature: request.headers['x-slack-signature'],
    rawBody: request.body,
    now: systemClock.now(),
  });
  if (!verdict.ok) return { refused: 'unauthorized', detail: `The Slack signature is not valid: ${REASONS[verdict.reason]}` };

  if (request.endpoint === 'interactions') {
    const interaction = parseInteraction(request.body);
    if (!interaction) return { refused: 'malformed', detail: 'The interaction payload is not one Slack sends.' };
    if (interaction.type === 'unsupported') return { status: 200, body: '' };
    let credentials: SlackCredentials;
    try {
      credentials = (await credentialsOf(integration)) as SlackCredentials;
    } catch (error) {
      // Its URL is unverified: nothing is sent to Slack; the click is acknowledged and logged.
      if (!(error instanceof ToolCallRefused)) throw error;
      logger.warn('slack interaction not handled', { integration_id: integration.integration_id, code: error.code });
      return { status: 200, body: '' };
    }
    return handleApprovalInteraction(integration, credentials, interaction);
  }
  const event = parseSlackEvent(request.body);
  if (!event) return { refused: 'malformed', detail: 'The event is not one Slack sends.' };
  if (event.type === 'url_verification') return { status: 200, body: JSON.stringify({ challenge: event.challenge }) };
  if (event.type === 'event_callback') {
    if (integration.account.team_id && event.team_id !== integration.account.team_id) return { status: 200, body: '' };
    const runs = await fireChatTriggers(integration, event.event);
    if (runs.length > 0) logger.info('chat triggers ran', { event_id: event.event_id, retry: request.headers['x-slack-retry-num'], runs: runs.map((run) => ({ trigger_id: run.trigger_id, run_id: run.run_id, outcome: run.outcome, task_id: run.task_id })) });
  }
  return { status: 200, body: '' };
}
