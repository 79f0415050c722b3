import { chatRepository } from '#shared/adapters/dynamodb/chat-repository';
import { integrationRepository } from '#shared/adapters/dynamodb/integration-repository';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { triggerRepository } from '#shared/adapters/dynamodb/trigger-repository';
import { postMessage } from '#shared/adapters/providers/slack';
import { pinnedSlack } from '#shared/services/integration-connection';
import { systemClock, type Clock } from '#shared/domain/clock';
import type { Integration, SlackCredentials, SlackSettings } from '#shared/domain/integration';
import { isHumanMessage, type SlackMessageEvent } from '#shared/domain/slack/slack-payloads';
import type { TaskSource } from '#shared/domain/task';
import { chatRunId, matchVerdict, type Trigger, type TriggerRun } from '#shared/domain/trigger';
import { logger } from '#shared/observability/logger';
import { ToolCallRefused, withIntegration } from '#shared/services/tool-execution';
import { execute } from '#shared/services/trigger-execution';

/**
 * A message in a channel: every enabled chat trigger of this integration and channel whose pattern
 * it matches starts one task. The run id is derived from the message (channel and ts), so Slack's
 * redeliveries (`X-Slack-Retry-Num`) and a second trigger handling find their run and start nothing twice.
 */
export async function fireChatTriggers(integration: Integration, message: SlackMessageEvent, clock: Clock = systemClock): Promise<TriggerRun[]> {
  if (!isHumanMessage(message, { botUserId: integration.account.bot_user_id })) return [];
  const triggers = (await triggerRepository.listAll(integration.tenant_id)).filter(
    (trigger): trigger is Trigger & { source: { type: 'chat' } } => trigger.source.type === 'chat' && trigger.source.integration_id === integration.integration_id && trigger.source.channel === message.channel,
  );
  const runs: TriggerRun[] = [];
  const sentAt = new Date(Math.floor(Number(message.ts) * 1000));
  const now = clock.now();
  for (const trigger of triggers) {
    if (trigger.source.type !== 'chat') continue;
    const verdict = matchVerdict([[trigger.source.pattern, message.text]]);
    if ('matched' in verdict && !verdict.matched) continue;
    const runId = chatRunId(trigger.trigger_id, `${message.channel}|${message.ts}`, Number.isFinite(sentAt.getTime()) ? sentAt : now);
    if ('unusable' in verdict) {
      await triggerRepository.recordRun(trigger.tenant_id, { run_id: runId, trigger_id: trigger.trigger_id, at: now.toISOString(), outcome: 'failed', reason: verdict.unusable });
      continue;
    }
    if (!trigger.enabled) {
      await triggerRepository.recordRun(trigger.tenant_id, { run_id: runId, trigger_id: trigger.trigger_id, at: now.toISOString(), outcome: 'skipped_disabled', reason: 'the trigger is paused' });
      continue;
    }
    // The reply goes in the message's thread: the thread it is in, or the one it starts.
    const thread = message.thread_ts ?? message.ts;
    const source: TaskSource = { type: 'chat', trigger_id: trigger.trigger_id, run_id: runId, integration_id: integration.integration_id, channel: message.channel, ts: thread, user: message.user ?? '' };
    const context = { chat: { user: message.user ?? '', channel: message.channel, text: message.text, ts: message.ts } };
    runs.push(await execute(trigger, { run_id: runId, at: now.toISOString(), source, context, advance: {}, overlap: false }));
  }
  return runs;
}

function replyText(reply: { task_id: string; agent: string; task_type: string; status: string; error?: { code: string; message: string } }, artifacts: number): string {
  const what = `\`${reply.task_type}\` (${reply.agent}, task ${reply.task_id})`;
  if (reply.status === 'complete') return `✅ ${what} is complete: ${artifacts} artifact${artifacts === 1 ? '' : 's'}.`;
  if (reply.status === 'failed') return `❌ ${what} failed: ${reply.error?.code ?? 'error'}: ${reply.error?.message ?? ''}`.slice(0, 3_000);
  return `⏹ ${what} was cancelled.`;
}

/** Posts a chat-started task's outcome in its thread, once (the reply's record says it was posted). */
export async function postChatReply(tenantId: string, taskId: string, clock: Clock = systemClock): Promise<void> {
  const reply = await chatRepository.chatReply(tenantId, taskId);
  if (!reply || reply.posted_at) return;
  const integration = await integrationRepository.get(tenantId, reply.integration_id);
  if (!integration || integration.status !== 'active') {
    logger.warn('chat reply not posted: the integration is gone or revoked', { task_id: taskId, integration_id: reply.integration_id });
    return;
  }
  const task = await taskRepository.load(tenantId, taskId);
  const text = replyText(reply, Object.keys(task?.artifacts ?? {}).length);
  try {
    const posted = await withIntegration(integration, async (credentials) =>
      postMessage(await pinnedSlack((integration.settings as SlackSettings).api_url, (credentials as SlackCredentials).bot_token), { channel: reply.channel, text, thread_ts: reply.thread_ts }),
    );
    await chatRepository.markReplyPosted(tenantId, taskId, posted.ts, clock.now().toISOString());
  } catch (error) {
    if (!(error instanceof ToolCallRefused)) throw error;
    logger.warn('chat reply not posted', { task_id: taskId, code: error.code, detail: error.message });
  }
}
