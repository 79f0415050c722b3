import { approvalRepository } from '#shared/adapters/dynamodb/approval-repository';
import { chatRepository, type ApprovalChatMessage } from '#shared/adapters/dynamodb/chat-repository';
import { openView, postEphemeral, postMessage, updateMessage } from '#shared/adapters/providers/slack';
import { pinnedSlack } from '#shared/services/integration-connection';
import { effectiveApproval, renderApproval, type Approval, type ChatDecider } from '#shared/domain/approval';
import { systemClock } from '#shared/domain/clock';
import { DomainError, InvalidRequestError } from '#shared/domain/errors';
import type { Integration, SlackCredentials, SlackSettings } from '#shared/domain/integration';
import { APPROVAL_ACTION_IDS, approvalMessage, canEditInSlack, EDIT_CALLBACK_ID, editModal, notAllowedText } from '#shared/domain/slack/approval-message';
import { viewErrors, type EditValues, type Interaction } from '#shared/domain/slack/slack-payloads';
import type { SlackHttpAnswer } from '#shared/domain/tool-proxy';
import { logger } from '#shared/observability/logger';
import { approvalChannels } from '#shared/services/approval-channels';
import { getApproval, resolveApproval } from '#shared/services/approvals';
import { credentialsOf, ToolCallRefused, withIntegration } from '#shared/services/tool-execution';

/** A claim to post an approval's message that is older than this was abandoned by a dead handler. */
const CLAIM_STALE_MS = 60_000;

const ok = (body: unknown = ''): SlackHttpAnswer => ({ status: 200, body: typeof body === 'string' ? body : JSON.stringify(body) });

function clientFor(integration: Integration, credentials: SlackCredentials) {
  return pinnedSlack((integration.settings as SlackSettings).api_url, credentials.bot_token);
}

/**
 * Brings an approval's Slack messages up to date: posted (with buttons) while it is pending and
 * was not posted yet, edited to show the decision once it is resolved, wherever that happened
 * (chat, API, dashboard, expiry). Safe to repeat: it always renders the approval as it is now.
 */
export async function syncApprovalMessages(tenantId: string, approvalId: string): Promise<void> {
  const approval = await approvalRepository.get(tenantId, approvalId);
  if (!approval) return;
  for (const integration of await approvalChannels(tenantId)) {
    try {
      await syncOne(integration, approval);
    } catch (error) {
      // Revoked or refused: nothing to post through it; anything else is retried by the queue.
      if (!(error instanceof ToolCallRefused)) throw error;
      logger.warn('approval message not posted', { integration_id: integration.integration_id, approval_id: approvalId, code: error.code });
    }
  }
}

async function syncOne(integration: Integration, stored: Approval): Promise<void> {
  const channel = (integration.settings as SlackSettings).approvals_channel!;
  const now = systemClock.now();
  let approval = stored;
  let record = await chatRepository.approvalMessage(approval.tenant_id, approval.approval_id, integration.integration_id);
  // Opened when first needed, once for the post and the edit that may follow it.
  let opened: Promise<{ credentials: SlackCredentials; client: Awaited<ReturnType<typeof clientFor>> }> | undefined;
  const connection = () =>
    (opened ??= (async () => {
      const credentials = (await credentialsOf(integration)) as SlackCredentials;
      return { credentials, client: await clientFor(integration, credentials) };
    })());
  if (!record?.ts) {
    // Decided before it was ever posted: nothing to show. Another handler posting holds a claim.
    if (effectiveApproval(approval, now).status !== 'pending') return;
    const claim: ApprovalChatMessage = { approval_id: approval.approval_id, integration_id: integration.integration_id, channel, claimed_at: now.toISOString() };
    if (!(await chatRepository.claimApprovalMessage(approval.tenant_id, claim, new Date(now.getTime() - CLAIM_STALE_MS).toISOString()))) return;
    let posted;
    try {
      const { credentials, client } = await connection();
      posted = await withIntegration(integration, () => postMessage(client, { channel, ...approvalMessage(renderApproval(approval, now)) }), { credentials });
    } catch (error) {
      await chatRepository.releaseApprovalMessage(approval.tenant_id, approval.approval_id, integration.integration_id);
      throw error;
    }
    await chatRepository.setApprovalMessageTs(approval.tenant_id, approval.approval_id, integration.integration_id, posted.ts);
    record = { ...claim, channel: posted.channel, ts: posted.ts };
    // A decision made while we posted shows at once (its own notice may have found the claim and left).
    approval = (await approvalRepository.get(approval.tenant_id, approval.approval_id)) ?? approval;
    if (effectiveApproval(approval, systemClock.now()).status === 'pending') return;
  }
  const message = approvalMessage(renderApproval(approval, systemClock.now()));
  const { credentials, client } = await connection();
  await withIntegration(integration, () => updateMessage(client, { channel: record.channel, ts: record.ts!, ...message }), { credentials });
}

function allowed(integration: Integration, userId: string): boolean {
  const { approvers } = integration.settings as SlackSettings;
  return !approvers || approvers.length === 0 || approvers.includes(userId);
}

function deciderOf(integration: Integration, userId: string): ChatDecider {
  return { type: 'chat', id: userId, user_id: userId, integration_id: integration.integration_id };
}

/**
 * A click on an approval's button, or the edit modal's submission. Answered within Slack's 3
 * seconds: the decision is one transaction; the message is edited by the approval's notice.
 */
export async function handleApprovalInteraction(integration: Integration, credentials: SlackCredentials, interaction: Exclude<Interaction, { type: 'unsupported' }>): Promise<SlackHttpAnswer> {
  const client = await clientFor(integration, credentials);
  // A payload of another workspace signed with this app's secret is not this tenant's.
  if (integration.account.team_id && interaction.team_id !== integration.account.team_id) return ok();
  if (interaction.type === 'view_submission') {
    if (interaction.callback_id !== EDIT_CALLBACK_ID) return ok();
    if (!allowed(integration, interaction.user_id)) return ok(viewErrors({ body: notAllowedText }));
    return submitEdit(integration, interaction.private_metadata, interaction.values, interaction.user_id);
  }
  const approvalId = interaction.value ?? '';
  const tell = (text: string) => (interaction.channel_id ? withIntegration(integration, () => postEphemeral(client, { channel: interaction.channel_id!, user: interaction.user_id, text }), { credentials }).catch(() => undefined) : undefined);
  if (!allowed(integration, interaction.user_id)) {
    await tell(notAllowedText);
    return ok();
  }
  let approval: Approval;
  try {
    approval = await getApproval(integration.tenant_id, approvalId);
  } catch {
    await tell('This approval no longer exists.');
    return ok();
  }
  if (interaction.action_id === APPROVAL_ACTION_IDS.edit) {
    const view = renderApproval(approval, systemClock.now());
    if (view.status === 'pending' && canEditInSlack(view.action)) await withIntegration(integration, () => openView(client, interaction.trigger_id, editModal(view) as never), { credentials });
    else await tell(view.status === 'pending' ? 'This action cannot be edited in Slack; edit it in the dashboard.' : 'This approval was already decided.');
    return ok();
  }
  if (interaction.action_id !== APPROVAL_ACTION_IDS.approve && interaction.action_id !== APPROVAL_ACTION_IDS.deny) return ok();
  try {
    await resolveApproval(integration.tenant_id, approvalId, { decision: interaction.action_id === APPROVAL_ACTION_IDS.approve ? 'approved' : 'denied' }, deciderOf(integration, interaction.user_id));
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    await tell(error.message);
  }
  return ok();
}

async function submitEdit(integration: Integration, approvalId: string, values: EditValues, userId: string): Promise<SlackHttpAnswer> {
  let approval: Approval;
  try {
    approval = await getApproval(integration.tenant_id, approvalId);
  } catch {
    return ok(viewErrors({ body: 'This approval no longer exists.' }));
  }
  const modified = { ...approval.action, ...values };
  try {
    await resolveApproval(integration.tenant_id, approvalId, { decision: 'approved', modified_action: modified }, deciderOf(integration, userId));
    return ok();
  } catch (error) {
    if (error instanceof InvalidRequestError) {
      const errors: EditValues = {};
      for (const entry of error.errors) {
        const field = entry.path.split('.').pop() as keyof EditValues;
        if (field === 'to' || field === 'subject' || field === 'body') errors[field] = entry.message;
      }
      return ok(viewErrors(Object.keys(errors).length > 0 ? errors : { body: error.message }));
    }
    if (error instanceof DomainError) return ok(viewErrors({ body: error.message }));
    throw error;
  }
}
