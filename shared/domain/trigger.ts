import { nextRuns, type ScheduleSpec } from '#shared/domain/cron-schedule';
import { derivedId } from '#shared/domain/ids';
import { resolvePointer } from '#shared/domain/json-pointer';
import { compileOperatorRegex, operatorPatternProblem, OperatorPatternError } from '#shared/domain/operator-regex';
import type { TaskPriority } from '#shared/domain/task';

/**
 * Triggers start tasks without anyone calling the API: on a schedule, or when an agent emits an
 * artifact of a type (mail and chat triggers come with the integrations). Each start, or each
 * reason not to start, is a run in the trigger's log.
 */
export type OverlapPolicy = 'skip' | 'allow';

export interface ScheduleSource extends ScheduleSpec {
  type: 'schedule';
  overlap: OverlapPolicy;
}

export interface EventSource {
  type: 'event';
  artifact_type: string;
  /** Only artifacts of this agent (canonical slug); any agent's when absent. */
  agent?: string;
}

export interface MailSource {
  type: 'mail';
  /** The email integration replies would go through; informational for the trigger itself. */
  integration_id?: string;
  /** Regular expressions the sender and the subject must match (case-insensitive). */
  match?: { from?: string; subject?: string };
  /** The trigger's inbound address, assigned by the service (`<local part>@<inbound domain>`). */
  address?: string;
}

export interface ChatSource {
  type: 'chat';
  /** The slack integration whose Events API requests bring the messages. */
  integration_id: string;
  /** The channel id (`C0123...`). */
  channel: string;
  /** A regular expression a message must match (case-insensitive) to start a task. */
  pattern: string;
}

export type TriggerSource = ScheduleSource | EventSource | MailSource | ChatSource;

/** Patterns are tried on at most this much of a message or subject, so no pattern runs long on a huge one. */
export const MATCHED_TEXT_LIMIT = 4_000;

/** Why a trigger's pattern cannot be used (too long, not a regular expression, or beyond linear-time matching), or undefined. */
export function patternProblem(pattern: string): string | undefined {
  return operatorPatternProblem(pattern, { ignoreCase: true });
}

/**
 * Whether `text` matches a trigger's pattern (case-insensitive; an absent pattern matches
 * everything), in time linear in the text. A stored pattern that no longer compiles throws
 * OperatorPatternError: its run fails, naming it.
 */
export function matchesPattern(pattern: string | undefined, text: string): boolean {
  if (pattern === undefined) return true;
  return compileOperatorRegex(pattern, { ignoreCase: true }).test(text.slice(0, MATCHED_TEXT_LIMIT));
}

/**
 * Whether every (pattern, text) pair matches, or why a stored pattern cannot be used any more (a
 * trigger saved before a rule it breaks existed): such a run fails with that reason, never the request.
 */
export function matchVerdict(pairs: readonly (readonly [pattern: string | undefined, text: string])[]): { matched: boolean } | { unusable: string } {
  try {
    return { matched: pairs.every(([pattern, text]) => matchesPattern(pattern, text)) };
  } catch (error) {
    if (!(error instanceof OperatorPatternError)) throw error;
    return { unusable: `the trigger's pattern cannot be used: it ${error.message}; change it with PATCH /v1/triggers/{trigger_id}` };
  }
}

/** The run of a chat message: one per (trigger, channel and ts) however often Slack delivers it. */
export function chatRunId(triggerId: string, messageKey: string, at: Date): string {
  return derivedId('run', at.getTime(), `${triggerId}|chat|${messageKey}`);
}

export interface TriggerTask {
  agent: string;
  task_type: string;
  input: Record<string, unknown>;
  /** Input field → RFC 6901 pointer into the run's context, merged over `input` (event triggers). */
  input_mapping?: Record<string, string>;
  priority: TaskPriority;
}

export interface Trigger {
  trigger_id: string;
  tenant_id: string;
  name: string;
  source: TriggerSource;
  task: TriggerTask;
  enabled: boolean;
  created_at: string;
  updated_at: string;
  /** A schedule's latest scheduled time handled (a run recorded for it), ISO. */
  last_scheduled_for?: string;
  /** The latest task the trigger started: the overlap rule looks at it. */
  last_task_id?: string;
}

export type RunOutcome = 'task_created' | 'skipped_overlap' | 'skipped_depth' | 'skipped_budget' | 'skipped_disabled' | 'missed' | 'failed';

export interface TriggerRun {
  run_id: string;
  trigger_id: string;
  at: string;
  scheduled_for?: string;
  outcome: RunOutcome;
  task_id?: string;
  reason?: string;
  /** An event trigger's cause: the artifact and the task that emitted it. */
  source_artifact_id?: string;
  source_task_id?: string;
}

/** Event-trigger chains stop here: a task started by a chain of this many triggers starts no other. */
export const MAX_TRIGGER_DEPTH = 8;

/** The run of a scheduled time: the same id however often that time is handled (the claim). */
export function scheduledRunId(triggerId: string, scheduledFor: Date): string {
  return derivedId('run', scheduledFor.getTime(), `${triggerId}|schedule|${scheduledFor.toISOString()}`);
}

/** The run of an emitted artifact: one per (trigger, artifact). */
export function eventRunId(triggerId: string, artifactId: string, at: Date): string {
  return derivedId('run', at.getTime(), `${triggerId}|artifact|${artifactId}`);
}

/** The name of a schedule trigger's recurring schedule. */
export function triggerScheduleName(trigger: Pick<Trigger, 'trigger_id'>): string {
  return `trigger-${trigger.trigger_id}`;
}

/**
 * The input of a run's task: `input`, with each mapped field set to what its pointer finds in the
 * context (a pointer that finds nothing leaves the field as `input` has it). Mapped values are
 * copied, so the task never shares structure with the artifact.
 */
export function mappedInput(task: Pick<TriggerTask, 'input' | 'input_mapping'>, context: unknown): Record<string, unknown> {
  const input = structuredClone(task.input);
  for (const [field, pointer] of Object.entries(task.input_mapping ?? {})) {
    const value = resolvePointer(context, pointer);
    if (value !== undefined) input[field] = structuredClone(value);
  }
  return input;
}

/** The trigger as clients see it; a schedule shows its next five runs. */
export function renderTrigger(trigger: Trigger, now: Date = new Date()) {
  const schedule = trigger.source.type === 'schedule' ? trigger.source : undefined;
  return {
    trigger_id: trigger.trigger_id,
    name: trigger.name,
    source: trigger.source,
    task: trigger.task,
    enabled: trigger.enabled,
    created_at: trigger.created_at,
    updated_at: trigger.updated_at,
    ...(schedule ? { next_runs: trigger.enabled ? nextRuns(schedule, now, 5).map((run) => run.toISOString()) : [] } : {}),
    last_scheduled_for: trigger.last_scheduled_for ?? null,
    last_task_id: trigger.last_task_id ?? null,
  };
}

export function renderRun(run: TriggerRun) {
  return {
    run_id: run.run_id,
    trigger_id: run.trigger_id,
    at: run.at,
    ...(run.scheduled_for ? { scheduled_for: run.scheduled_for } : {}),
    outcome: run.outcome,
    ...(run.task_id ? { task_id: run.task_id } : {}),
    ...(run.reason ? { reason: run.reason } : {}),
    ...(run.source_artifact_id ? { source_artifact_id: run.source_artifact_id } : {}),
    ...(run.source_task_id ? { source_task_id: run.source_task_id } : {}),
  };
}
