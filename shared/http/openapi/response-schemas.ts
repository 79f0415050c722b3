import * as z from '#shared/zod';

/**
 * What the API answers, as zod schemas: the OpenAPI document declares them per status, and the
 * contract tests validate every answer against them. Records are open (`catchall`): a field added
 * later is not a breaking change, while the fields named here must keep their types.
 */
const record = <T extends Parameters<typeof z.object>[0]>(shape: T) => z.catchall(z.object(shape), z.unknown());
const text = () => z.string();
const instant = () => z.string();
const nullableText = () => z.nullable(z.string());
const cursorFields = () => ({ next_cursor: z.nullable(z.string()), has_more: z.optional(z.boolean()) });
/** A list named for what it lists, with the cursor of the next page. */
export const listOf = (name: string, item: z.ZodType) => record({ [name]: z.array(item), ...cursorFields() });
const anyObject = () => z.record(z.string(), z.unknown());

export const problemSchema = /* @__PURE__ */ z.schema(() =>
  record({
    type: text(),
    title: text(),
    status: z.number().check(z.int()),
    detail: text(),
    code: text(),
    errors: z.optional(z.array(record({ path: text(), message: text() }))),
  }),
);

export const healthSchema = /* @__PURE__ */ z.schema(() => record({ status: z.enum(['ok']) }));
export const problemTypeSchema = /* @__PURE__ */ z.schema(() => record({ type: text(), code: text(), title: text(), status: z.nullable(z.number().check(z.int())), description: text() }));

export const agentSchema = /* @__PURE__ */ z.schema(() =>
  record({ agent_id: text(), agent_slug: text(), name: text(), status: text(), kind: z.enum(['built_in', 'custom']), config: record({ approval_ttl_hours: z.number() }), created_at: instant(), updated_at: instant() }),
);
export const catalogAgentSchema = /* @__PURE__ */ z.schema(() =>
  record({ slug: text(), aliases: z.array(text()), name: text(), description: text(), task_types: z.array(record({ task_type: text(), description: text() })) }),
);
export const manifestSchema = /* @__PURE__ */ z.schema(() => record({ agent_id: text(), slug: text(), name: text(), task_types: z.array(record({ task_type: text() })) }));

const artifactSummary = () => record({ artifact_id: text(), type: text(), created_at: instant() });
export const taskSchema = /* @__PURE__ */ z.schema(() =>
  record({
    task_id: text(),
    agent: text(),
    agent_id: z.optional(text()),
    task_type: text(),
    input: anyObject(),
    status: z.enum(['queued', 'pending', 'running', 'awaiting_approval', 'complete', 'failed', 'cancelled']),
    priority: z.enum(['low', 'normal', 'high']),
    session_id: z.optional(text()),
    trigger: record({ type: z.enum(['api', 'dashboard', 'schedule', 'event', 'mail', 'chat']), user_id: z.optional(text()), trigger_id: z.optional(text()), run_id: z.optional(text()), root_task_id: z.optional(text()) }),
    artifacts: z.array(artifactSummary()),
    created_at: instant(),
    started_at: z.optional(instant()),
    completed_at: z.nullable(instant()),
    error: z.optional(record({ code: text(), message: text() })),
    tenant_id: text(),
  }),
);
/** The worker protocol's answers (docs/workers.md). */
const decisionSchema = () =>
  record({
    approval_id: text(),
    decision: z.enum(['approved', 'denied']),
    action: record({ type: text() }),
    comment: z.optional(text()),
    resolution: z.enum(['resolved', 'expired']),
    execution: z.optional(record({ status: z.enum(['executed', 'failed']), result: z.optional(anyObject()), error: z.optional(record({ code: text(), message: text() })) })),
  });
export const claimSchema = /* @__PURE__ */ z.schema(() => record({ task: taskSchema, lease_id: text(), lease_expires_at: instant(), attempt: z.number().check(z.int()), decisions: z.array(decisionSchema()) }));
export const heartbeatSchema = /* @__PURE__ */ z.schema(() => record({ lease_expires_at: instant(), cancel_requested: z.boolean() }));
export const toolCallSchema = /* @__PURE__ */ z.schema(() =>
  record({
    tool_call_id: text(),
    tool: text(),
    integration_id: nullableText(),
    outcome: z.enum(['succeeded', 'failed']),
    duration_ms: z.number(),
    result: z.optional(anyObject()),
    error: z.optional(record({ code: text(), message: text() })),
  }),
);

export const sessionSchema = /* @__PURE__ */ z.schema(() =>
  record({
    session_id: text(),
    agent: text(),
    status: z.enum(['open', 'closed']),
    title: nullableText(),
    metadata: z.record(z.string(), z.string()),
    idle_timeout_minutes: z.number().check(z.int()),
    created_at: instant(),
    last_activity_at: instant(),
    task_count: z.number().check(z.int()),
    closed_at: z.nullable(instant()),
    close_reason: nullableText(),
  }),
);
export const sessionMessageSchema = /* @__PURE__ */ z.schema(() =>
  record({
    message_id: text(),
    session_id: text(),
    role: z.enum(['user', 'agent']),
    content: text(),
    created_at: instant(),
    task_id: z.optional(text()),
    outcome: z.optional(text()),
    artifact_ids: z.optional(z.array(text())),
  }),
);
export const triggerSchema = /* @__PURE__ */ z.schema(() =>
  record({
    trigger_id: text(),
    name: text(),
    source: record({ type: z.enum(['schedule', 'event', 'mail', 'chat']) }),
    task: record({ agent: text(), task_type: text(), input: anyObject(), input_mapping: z.optional(z.record(z.string(), z.string())), priority: z.enum(['low', 'normal', 'high']) }),
    enabled: z.boolean(),
    created_at: instant(),
    updated_at: instant(),
    next_runs: z.optional(z.array(instant())),
    last_scheduled_for: z.nullable(instant()),
    last_task_id: nullableText(),
  }),
);
export const integrationSchema = /* @__PURE__ */ z.schema(() =>
  record({
    integration_id: text(),
    kind: z.enum(['github', 'slack', 'email']),
    name: text(),
    status: z.enum(['active', 'revoked']),
    account: z.record(z.string(), z.string()),
    settings: anyObject(),
    created_at: instant(),
    updated_at: instant(),
    last_used_at: z.nullable(instant()),
    revoked_at: z.optional(instant()),
    revoked_reason: z.optional(text()),
  }),
);
export const slackAnswerSchema = /* @__PURE__ */ z.schema(() => anyObject());
export const integrationTestSchema = /* @__PURE__ */ z.schema(() =>
  record({ ok: z.boolean(), account: z.optional(z.record(z.string(), z.string())), status: z.optional(z.enum(['active', 'revoked'])), error: z.optional(record({ code: text(), message: text() })) }),
);
export const triggerRunSchema = /* @__PURE__ */ z.schema(() =>
  record({
    run_id: text(),
    trigger_id: text(),
    at: instant(),
    scheduled_for: z.optional(instant()),
    outcome: z.enum(['task_created', 'skipped_overlap', 'skipped_depth', 'skipped_budget', 'skipped_disabled', 'missed', 'failed']),
    task_id: z.optional(text()),
    reason: z.optional(text()),
  }),
);
export const taskCancellationSchema = /* @__PURE__ */ z.schema(() => record({ cancelled: z.boolean(), task_id: text(), status: text() }));

export const artifactSchema = /* @__PURE__ */ z.schema(() =>
  record({ artifact_id: text(), task_id: text(), type: text(), created_at: instant(), data: anyObject(), expires_at: nullableText(), approval_status: z.optional(text()) }),
);
export const taskArtifactsSchema = /* @__PURE__ */ z.schema(() => record({ task_id: text(), artifacts: z.array(artifactSchema) }));

export const approvalSchema = /* @__PURE__ */ z.schema(() =>
  record({
    approval_id: text(),
    task_id: text(),
    agent: text(),
    title: text(),
    description: text(),
    action: record({ type: text() }),
    original_action: z.optional(record({ type: text() })),
    artifact_id: z.optional(text()),
    status: z.enum(['pending', 'approved', 'denied']),
    created_at: instant(),
    expires_at: instant(),
    decision: z.optional(z.enum(['approved', 'denied'])),
    resolution: z.optional(text()),
    resolved_at: z.optional(instant()),
    resolved_by: z.optional(record({ type: z.enum(['user', 'api_key', 'chat']), id: text(), name: z.optional(text()) })),
    comment: z.optional(text()),
  }),
);
export const approvalResolutionSchema = /* @__PURE__ */ z.schema(() =>
  record({ approval_id: text(), decision: z.enum(['approved', 'denied']), resolved_at: instant(), status: text(), action: record({ type: text() }) }),
);

export const eventSchema = /* @__PURE__ */ z.schema(() =>
  record({ event_id: text(), type: text(), created_at: instant(), tenant_id: text(), task_id: z.optional(text()), agent: z.optional(text()), approval_id: z.optional(text()), scan_id: z.optional(text()), data: anyObject() }),
);

export const webhookSchema = /* @__PURE__ */ z.schema(() =>
  record({
    webhook_id: text(),
    url: text(),
    events: z.array(text()),
    status: z.enum(['enabled', 'disabled']),
    disabled_reason: z.optional(text()),
    previous_secret_expires_at: z.optional(instant()),
    created_at: instant(),
    updated_at: instant(),
    last_success_at: z.optional(instant()),
    failing_since: z.optional(instant()),
  }),
);
const attemptFields = () => ({ attempt: z.number(), at: instant(), status_code: z.optional(z.number()), latency_ms: z.number(), error: z.optional(text()), ok: z.boolean() });
const deliveryFields = () => ({
  delivery_id: text(),
  event_id: text(),
  event_type: text(),
  status: z.enum(['pending', 'retrying', 'succeeded', 'failed', 'skipped']),
  attempt_count: z.number().check(z.int()),
  attempts: z.array(record(attemptFields())),
  created_at: instant(),
  next_attempt_at: z.optional(instant()),
  failure_reason: z.optional(text()),
});
export const deliverySchema = /* @__PURE__ */ z.schema(() => record(deliveryFields()));
/** One delivery as sent: the request of its latest attempt and each attempt's response excerpt. */
export const deliveryDetailSchema = /* @__PURE__ */ z.schema(() =>
  record({
    ...deliveryFields(),
    request: record({ method: z.enum(['POST']), url: text(), attempt: z.optional(z.number().check(z.int())), headers: z.optional(z.record(z.string(), z.string())), body: text() }),
    attempts: z.array(record({ ...attemptFields(), response: z.optional(record({ status_code: z.number().check(z.int()), content_type: z.optional(text()), body: text(), truncated: z.boolean() })) })),
  }),
);
export const recoverySchema = /* @__PURE__ */ z.schema(() => record({ webhook_id: text(), since: text(), queued: z.number().check(z.int()) }));

const crawlSettings = () =>
  record({
    max_pages: z.number().check(z.int()),
    timeout_seconds: z.number().check(z.int()),
    max_page_bytes: z.number().check(z.int()),
    respect_robots_txt: z.boolean(),
    include: z.array(text()),
    exclude: z.array(text()),
  });
export const projectSchema = /* @__PURE__ */ z.schema(() =>
  record({ project_id: text(), name: text(), target: text(), default_detectors: z.array(text()), crawl: crawlSettings(), created_at: instant(), updated_at: instant() }),
);
const scanStatus = () => z.enum(['pending', 'running', 'completed', 'failed', 'cancelled']);
/** A scan while it runs (detectors by name, progress) or once it ended (detectors with their results). */
export const scanSchema = /* @__PURE__ */ z.schema(() =>
  record({
    scan_id: text(),
    project_id: text(),
    status: scanStatus(),
    created_at: instant(),
    detectors: z.union([z.array(text()), anyObject()]),
    target: z.optional(text()),
    completed_at: z.optional(instant()),
    crawl_problems: z.optional(z.array(record({ url: text(), reason: text(), detail: z.optional(text()) }))),
  }),
);
export const scanSummarySchema = /* @__PURE__ */ z.schema(() =>
  record({ scan_id: text(), status: scanStatus(), risk_score: z.nullable(z.number()), risk_level: nullableText(), created_at: instant(), completed_at: z.nullable(instant()) }),
);
export const scanCancellationSchema = /* @__PURE__ */ z.schema(() => record({ scan_id: text(), status: scanStatus() }));
const findingLocation = () => record({ type: text(), url: text(), selector: z.optional(text()), line: z.optional(z.number()), column: z.optional(z.number()), snippet: z.optional(text()) });
export const findingSchema = /* @__PURE__ */ z.schema(() =>
  record({
    id: text(),
    detector: text(),
    severity: z.enum(['critical', 'high', 'medium', 'low', 'info']),
    rule_id: text(),
    title: text(),
    fingerprint: text(),
    status: text(),
    first_seen_at: text(),
    location: z.optional(findingLocation()),
    // One template's element problem on several pages: how many, and the first others.
    page_count: z.optional(z.number().check(z.int())),
    other_locations: z.optional(z.array(findingLocation())),
  }),
);
export const scanFindingsSchema = /* @__PURE__ */ z.schema(() => record({ scan_id: text(), data: z.array(findingSchema), total: z.number().check(z.int()), ...cursorFields() }));
export const ruleHistorySchema = /* @__PURE__ */ z.schema(() => record({ rule_id: text(), history: z.array(anyObject()) }));

export const retentionSchema = /* @__PURE__ */ z.schema(() =>
  record({
    plan: text(),
    retention_days: z.nullable(z.number().check(z.int())),
    default_retention_days: z.nullable(z.number()),
    min_retention_days: z.number(),
    max_retention_days: z.nullable(z.number()),
    longest_finite_retention_days: z.number(),
    indefinite_allowed: z.boolean(),
    applies_to: z.array(text()),
    updated_at: z.nullable(instant()),
  }),
);

/** The OpenAPI document itself: only its frame is promised here. */
export const openApiDocumentSchema = /* @__PURE__ */ z.schema(() => record({ openapi: text(), info: anyObject(), paths: anyObject() }));

const principal = () => record({ type: z.enum(['user', 'api_key', 'chat']), id: text() });
/** A person's role; a key may also be an `agent` key, bound to one custom agent (`agent`). */
const role = () => z.enum(['admin', 'approver', 'operator', 'viewer']);
const keyRole = () => z.enum(['admin', 'approver', 'operator', 'viewer', 'agent']);
export const meSchema = /* @__PURE__ */ z.schema(() =>
  record({ principal: record({ type: z.enum(['user', 'api_key']), id: text(), email: z.optional(text()), name: z.optional(text()) }), tenant_id: z.nullable(text()), role: z.enum(['admin', 'approver', 'operator', 'viewer', 'invitee']) }),
);
/** A pending invitation as its invitee sees it (GET /me/invitations). */
export const invitationSchema = /* @__PURE__ */ z.schema(() => record({ tenant_id: text(), role: role(), invited_at: instant() }));
export const memberSchema = /* @__PURE__ */ z.schema(() =>
  record({
    user_id: text(),
    email: text(),
    name: z.optional(text()),
    role: role(),
    status: z.enum(['invited', 'active']),
    created_at: instant(),
    added_by: z.nullable(principal()),
    joined_at: z.optional(instant()),
  }),
);
export const apiKeySchema = /* @__PURE__ */ z.schema(() =>
  record({
    key_id: text(),
    name: nullableText(),
    /** What the key acts with now: its granted role capped at its person's current role. */
    role: keyRole(),
    /** The role the key was created with. */
    granted_role: keyRole(),
    /** Whether `role` is below `granted_role` (its person was demoted). */
    capped: z.boolean(),
    /** Refused though not revoked: its person was removed or may no longer hold any of its power (revoked shortly). */
    suspended: z.boolean(),
    /** The person (user id) whose current role caps the key; null for keys made outside the API. */
    bound_to: nullableText(),
    agent: z.optional(text()),
    display_prefix: text(),
    created_at: instant(),
    created_by: z.nullable(principal()),
    last_used_at: z.nullable(instant()),
    revoked_at: z.optional(z.nullable(instant())),
    /** Set when the service revoked the key: `creator_removed`, or `creator_demoted` (an agent key whose creator is no longer an admin). */
    revoked_reason: z.optional(z.enum(['creator_removed', 'creator_demoted'])),
  }),
);
/** The answer to creating a key: the record and, this once, the key itself. */
export const newApiKeySchema = /* @__PURE__ */ z.schema(() => z.catchall(z.object({ key: text() }), z.unknown()));
const usageCounts = () => record({ tasks_created: z.number(), tasks_completed: z.number(), task_seconds: z.number() });
export const usageSchema = /* @__PURE__ */ z.schema(() =>
  record({
    month: text(),
    tasks_created: z.number(),
    tasks_completed: z.number(),
    tasks_failed: z.number(),
    task_seconds: z.number(),
    scans: z.number(),
    pages_scanned: z.number(),
    approvals: z.number(),
    tool_calls: z.number(),
    webhook_deliveries: z.number(),
    by_agent: z.record(z.string(), z.catchall(z.object({ ...usageCounts().shape, by_task_type: z.record(z.string(), usageCounts()) }), z.unknown())),
  }),
);
