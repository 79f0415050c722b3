import type { Role } from '#shared/domain/roles';

export { API_VERSION } from '#shared/http/api-version';

/**
 * The API's route table, declared once. The CDK API construct builds API Gateway resources and
 * one Lambda function per route from it; the local runtime serves the same routes with the same
 * handler files. `access` is what the route's function may touch (least privilege in CDK).
 */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface RouteAccess {
  /** `none`: the function never touches the table and gets no access to it. */
  table: 'none' | 'read' | 'read_write';
  /** Sends to the task queues. */
  dispatchTasks?: boolean;
  /** Sends approved actions to the tool-call queue. */
  dispatchToolCalls?: boolean;
  /** Creates and deletes one-time schedules (approval expiry). */
  schedules?: boolean;
  /** Sends webhook delivery attempts to their queue. */
  dispatchDeliveries?: boolean;
  /** Encrypts webhook signing secrets (KMS on AWS). */
  encryptSecrets?: boolean;
  /** Seals integration credentials (a KMS data key on AWS); never opens them: only the tool proxy does. */
  encryptCredentials?: boolean;
  /** Invokes the tool proxy synchronously (it alone decrypts integration credentials). */
  invokeToolProxy?: boolean;
  /** Sends detector runs of new scans to their queue. */
  dispatchScans?: boolean;
  /** Writes large exports to the export bucket and presigns them. */
  exportBucket?: boolean;
  /** Sends retention re-stamp jobs to their queue. */
  dispatchRetention?: boolean;
  /** Knows the domain mail triggers' addresses are at (SES receiving's, a stack parameter on AWS). */
  inboundMail?: boolean;
  /** Spends its tenant's request budget (rate limit); set for every authenticated route, below. */
  rateLimit?: boolean;
}

export interface RouteDefinition {
  method: HttpMethod;
  /** Path under the stage (`/v1`), with `{param}` segments as API Gateway writes them. */
  path: string;
  /** Handler file, relative to the repository root; it exports `handler`. */
  handler: string;
  /** `api_key`: the API's authorizer resolves the Bearer key (or a person's access token) to a tenant first. */
  auth: 'api_key' | 'none';
  /**
   * The least role that may call the route (shared/domain/roles.ts `allows`); every
   * authenticated route names one, public routes (`auth: 'none'`) none. The route chain checks
   * it (403 `forbidden`); the authorizer stays route-independent because API Gateway caches it.
   */
  role?: Role;
  /**
   * Served with Lambda response streaming: on AWS through the REST API like every other route
   * (behind the same authorizer and throttling), its integration in `STREAM` response transfer
   * mode; locally by the runtime the same way. The handler gets the proxy event of every route.
   */
  streaming?: boolean;
  access: RouteAccess;
  /** Served at the root instead of under `/v1` by the local runtime (health checks). */
  unversioned?: boolean;
  /** The longest the route may wait for something to happen (a claim's long poll): its function's timeout allows for it. */
  waitsSeconds?: number;
}

const declaredRoutes: readonly RouteDefinition[] = [
  { method: 'GET', path: '/health', handler: 'functions/health/get-health.ts', auth: 'none', access: { table: 'none' }, unversioned: true },
  // The documentation of the problem types every error answer's `type` points at: public, static.
  { method: 'GET', path: '/problems', handler: 'functions/problems/list-problem-types.ts', auth: 'none', access: { table: 'none' } },
  { method: 'GET', path: '/problems/{code}', handler: 'functions/problems/get-problem-type.ts', auth: 'none', access: { table: 'none' } },
  // The OpenAPI document of every route here, generated from the schemas that validate requests: public, static.
  { method: 'GET', path: '/openapi.json', handler: 'functions/openapi/get-openapi-document.ts', auth: 'none', access: { table: 'none' } },

  { method: 'POST', path: '/agents/deploy', handler: 'functions/agents/deploy-agent.ts', auth: 'api_key', role: 'admin', access: { table: 'read_write' } },
  { method: 'GET', path: '/agents', handler: 'functions/agents/list-agents.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'GET', path: '/agents/catalog', handler: 'functions/agents/list-agent-catalog.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'GET', path: '/agents/{agent_id}', handler: 'functions/agents/get-agent.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'GET', path: '/agents/{agent_id}/manifest', handler: 'functions/agents/get-agent-manifest.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  // API Gateway allows one variable name per path level, so `{agent_slug}` of the spec is
  // `{agent_id}` here; the handler accepts a slug or an id.
  { method: 'PATCH', path: '/agents/{agent_id}/config', handler: 'functions/agents/update-agent-config.ts', auth: 'api_key', role: 'admin', access: { table: 'read_write' } },

  // The worker protocol of custom agents (docs/workers.md): only an `agent` key, bound to one
  // custom agent, calls these, and it can call nothing else. A claim waits up to 20 s for a task.
  { method: 'POST', path: '/agents/{agent_id}/claims', handler: 'functions/agents/claim-task.ts', auth: 'api_key', role: 'agent', access: { table: 'read_write' }, waitsSeconds: 20 },
  { method: 'POST', path: '/tasks/{task_id}/heartbeat', handler: 'functions/tasks/heartbeat-task.ts', auth: 'api_key', role: 'agent', access: { table: 'read_write' } },
  { method: 'POST', path: '/tasks/{task_id}/artifacts', handler: 'functions/tasks/emit-task-artifact.ts', auth: 'api_key', role: 'agent', access: { table: 'read_write' } },
  { method: 'POST', path: '/tasks/{task_id}/approvals', handler: 'functions/tasks/request-task-approval.ts', auth: 'api_key', role: 'agent', access: { table: 'read_write', schedules: true } },
  { method: 'POST', path: '/tasks/{task_id}/tool-calls', handler: 'functions/tasks/call-task-tool.ts', auth: 'api_key', role: 'agent', access: { table: 'read_write', invokeToolProxy: true } },
  { method: 'POST', path: '/tasks/{task_id}/complete', handler: 'functions/tasks/complete-task.ts', auth: 'api_key', role: 'agent', access: { table: 'read_write' } },
  { method: 'POST', path: '/tasks/{task_id}/fail', handler: 'functions/tasks/fail-task.ts', auth: 'api_key', role: 'agent', access: { table: 'read_write' } },
  { method: 'POST', path: '/tasks/{task_id}/release', handler: 'functions/tasks/release-task.ts', auth: 'api_key', role: 'agent', access: { table: 'read_write' } },

  { method: 'POST', path: '/tasks', handler: 'functions/tasks/create-task.ts', auth: 'api_key', role: 'operator', access: { table: 'read_write', dispatchTasks: true } },
  { method: 'GET', path: '/tasks', handler: 'functions/tasks/list-tasks.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'GET', path: '/tasks/{task_id}', handler: 'functions/tasks/get-task.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'DELETE', path: '/tasks/{task_id}', handler: 'functions/tasks/delete-task.ts', auth: 'api_key', role: 'operator', access: { table: 'read_write' } },
  { method: 'POST', path: '/tasks/{task_id}/cancel', handler: 'functions/tasks/cancel-task.ts', auth: 'api_key', role: 'operator', access: { table: 'read_write' } },
  { method: 'GET', path: '/tasks/{task_id}/artifacts', handler: 'functions/tasks/list-task-artifacts.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },

  // Creating a session schedules its idle close; a message may start a task in it.
  { method: 'POST', path: '/sessions', handler: 'functions/sessions/create-session.ts', auth: 'api_key', role: 'operator', access: { table: 'read_write', schedules: true } },
  { method: 'GET', path: '/sessions', handler: 'functions/sessions/list-sessions.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'GET', path: '/sessions/{session_id}', handler: 'functions/sessions/get-session.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'POST', path: '/sessions/{session_id}/messages', handler: 'functions/sessions/create-session-message.ts', auth: 'api_key', role: 'operator', access: { table: 'read_write', dispatchTasks: true } },
  { method: 'GET', path: '/sessions/{session_id}/messages', handler: 'functions/sessions/list-session-messages.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'POST', path: '/sessions/{session_id}/close', handler: 'functions/sessions/close-session.ts', auth: 'api_key', role: 'operator', access: { table: 'read_write' } },

  // Triggers: changing one changes its schedule (EventBridge Scheduler on AWS); a fire creates a task.
  { method: 'POST', path: '/triggers', handler: 'functions/triggers/create-trigger.ts', auth: 'api_key', role: 'operator', access: { table: 'read_write', schedules: true, inboundMail: true } },
  { method: 'GET', path: '/triggers', handler: 'functions/triggers/list-triggers.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'GET', path: '/triggers/{trigger_id}', handler: 'functions/triggers/get-trigger.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'PATCH', path: '/triggers/{trigger_id}', handler: 'functions/triggers/update-trigger.ts', auth: 'api_key', role: 'operator', access: { table: 'read_write', schedules: true, inboundMail: true } },
  { method: 'DELETE', path: '/triggers/{trigger_id}', handler: 'functions/triggers/delete-trigger.ts', auth: 'api_key', role: 'operator', access: { table: 'read_write', schedules: true } },
  { method: 'POST', path: '/triggers/{trigger_id}/fire', handler: 'functions/triggers/fire-trigger.ts', auth: 'api_key', role: 'operator', access: { table: 'read_write', dispatchTasks: true } },
  { method: 'GET', path: '/triggers/{trigger_id}/runs', handler: 'functions/triggers/list-trigger-runs.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },

  // Integrations: connecting checks the credentials with the provider and seals them; only the tool
  // proxy opens them, so testing them and Slack's signed calls (no API key: the signing secret
  // verifies them) go through it.
  { method: 'POST', path: '/integrations', handler: 'functions/integrations/create-integration.ts', auth: 'api_key', role: 'admin', access: { table: 'read_write', encryptCredentials: true } },
  { method: 'GET', path: '/integrations', handler: 'functions/integrations/list-integrations.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'GET', path: '/integrations/{integration_id}', handler: 'functions/integrations/get-integration.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'PATCH', path: '/integrations/{integration_id}', handler: 'functions/integrations/update-integration.ts', auth: 'api_key', role: 'admin', access: { table: 'read_write', encryptCredentials: true } },
  { method: 'DELETE', path: '/integrations/{integration_id}', handler: 'functions/integrations/delete-integration.ts', auth: 'api_key', role: 'admin', access: { table: 'read_write' } },
  { method: 'POST', path: '/integrations/{integration_id}/test', handler: 'functions/integrations/test-integration.ts', auth: 'api_key', role: 'admin', access: { table: 'read', invokeToolProxy: true } },
  { method: 'POST', path: '/integrations/{integration_id}/slack/interactions', handler: 'functions/integrations/slack-interactions.ts', auth: 'none', access: { table: 'none', invokeToolProxy: true } },
  { method: 'POST', path: '/integrations/{integration_id}/slack/events', handler: 'functions/integrations/slack-events.ts', auth: 'none', access: { table: 'none', invokeToolProxy: true } },

  { method: 'GET', path: '/artifacts', handler: 'functions/artifacts/list-artifacts.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'GET', path: '/artifacts/{artifact_id}', handler: 'functions/artifacts/get-artifact.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'DELETE', path: '/artifacts/{artifact_id}', handler: 'functions/artifacts/delete-artifact.ts', auth: 'api_key', role: 'admin', access: { table: 'read_write' } },

  { method: 'GET', path: '/approvals', handler: 'functions/approvals/list-approvals.ts', auth: 'api_key', role: 'viewer', access: { table: 'read_write', dispatchTasks: true, schedules: true } },
  { method: 'GET', path: '/approvals/{approval_id}', handler: 'functions/approvals/get-approval.ts', auth: 'api_key', role: 'viewer', access: { table: 'read_write', dispatchTasks: true, schedules: true } },
  { method: 'POST', path: '/approvals/{approval_id}/resolve', handler: 'functions/approvals/resolve-approval.ts', auth: 'api_key', role: 'approver', access: { table: 'read_write', dispatchTasks: true, dispatchToolCalls: true, schedules: true } },

  { method: 'POST', path: '/webhooks', handler: 'functions/webhooks/create-webhook.ts', auth: 'api_key', role: 'admin', access: { table: 'read_write', encryptSecrets: true } },
  { method: 'GET', path: '/webhooks', handler: 'functions/webhooks/list-webhooks.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'GET', path: '/webhooks/{webhook_id}', handler: 'functions/webhooks/get-webhook.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'PATCH', path: '/webhooks/{webhook_id}', handler: 'functions/webhooks/update-webhook.ts', auth: 'api_key', role: 'admin', access: { table: 'read_write' } },
  { method: 'DELETE', path: '/webhooks/{webhook_id}', handler: 'functions/webhooks/delete-webhook.ts', auth: 'api_key', role: 'admin', access: { table: 'read_write' } },
  { method: 'POST', path: '/webhooks/{webhook_id}/rotate-secret', handler: 'functions/webhooks/rotate-webhook-secret.ts', auth: 'api_key', role: 'admin', access: { table: 'read_write', encryptSecrets: true } },
  { method: 'GET', path: '/webhooks/{webhook_id}/deliveries', handler: 'functions/webhooks/list-deliveries.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'GET', path: '/webhooks/{webhook_id}/deliveries/{delivery_id}', handler: 'functions/webhooks/get-delivery.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'POST', path: '/webhooks/{webhook_id}/deliveries/{delivery_id}/resend', handler: 'functions/webhooks/resend-delivery.ts', auth: 'api_key', role: 'admin', access: { table: 'read_write', dispatchDeliveries: true } },
  { method: 'POST', path: '/webhooks/{webhook_id}/recover', handler: 'functions/webhooks/recover-deliveries.ts', auth: 'api_key', role: 'admin', access: { table: 'read_write', dispatchDeliveries: true } },

  { method: 'POST', path: '/projects', handler: 'functions/projects/create-project.ts', auth: 'api_key', role: 'operator', access: { table: 'read_write' } },
  { method: 'GET', path: '/projects', handler: 'functions/projects/list-projects.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'GET', path: '/projects/{project_id}', handler: 'functions/projects/get-project.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'PATCH', path: '/projects/{project_id}', handler: 'functions/projects/update-project.ts', auth: 'api_key', role: 'operator', access: { table: 'read_write' } },
  { method: 'POST', path: '/projects/{project_id}/scans', handler: 'functions/scans/create-scan.ts', auth: 'api_key', role: 'operator', access: { table: 'read_write', dispatchScans: true } },
  { method: 'GET', path: '/projects/{project_id}/scans', handler: 'functions/scans/list-scans.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'GET', path: '/projects/{project_id}/findings/{rule_id}/history', handler: 'functions/findings/get-rule-history.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'GET', path: '/scans/{scan_id}', handler: 'functions/scans/get-scan.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'POST', path: '/scans/{scan_id}/cancel', handler: 'functions/scans/cancel-scan.ts', auth: 'api_key', role: 'operator', access: { table: 'read_write' } },
  { method: 'GET', path: '/scans/{scan_id}/findings', handler: 'functions/scans/list-scan-findings.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'GET', path: '/scans/{scan_id}/export', handler: 'functions/scans/export-scan.ts', auth: 'api_key', role: 'viewer', access: { table: 'read', exportBucket: true } },
  { method: 'GET', path: '/findings/{finding_id}', handler: 'functions/findings/get-finding.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'PATCH', path: '/findings/{finding_id}', handler: 'functions/findings/update-finding.ts', auth: 'api_key', role: 'operator', access: { table: 'read_write' } },

  { method: 'GET', path: '/settings/retention', handler: 'functions/settings/get-retention.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'PATCH', path: '/settings/retention', handler: 'functions/settings/update-retention.ts', auth: 'api_key', role: 'admin', access: { table: 'read_write', dispatchRetention: true } },

  { method: 'GET', path: '/me', handler: 'functions/me/get-me.ts', auth: 'api_key', role: 'invitee', access: { table: 'read' } },
  { method: 'GET', path: '/me/invitations', handler: 'functions/invitations/list-invitations.ts', auth: 'api_key', role: 'invitee', access: { table: 'read' } },
  { method: 'POST', path: '/me/invitations/{tenant_id}/accept', handler: 'functions/invitations/accept-invitation.ts', auth: 'api_key', role: 'invitee', access: { table: 'read_write' } },
  { method: 'POST', path: '/me/invitations/{tenant_id}/decline', handler: 'functions/invitations/decline-invitation.ts', auth: 'api_key', role: 'invitee', access: { table: 'read_write' } },

  { method: 'POST', path: '/api-keys', handler: 'functions/api-keys/create-api-key.ts', auth: 'api_key', role: 'admin', access: { table: 'read_write' } },
  { method: 'GET', path: '/api-keys', handler: 'functions/api-keys/list-api-keys.ts', auth: 'api_key', role: 'admin', access: { table: 'read' } },
  { method: 'DELETE', path: '/api-keys/{key_id}', handler: 'functions/api-keys/revoke-api-key.ts', auth: 'api_key', role: 'admin', access: { table: 'read_write' } },

  { method: 'GET', path: '/members', handler: 'functions/members/list-members.ts', auth: 'api_key', role: 'admin', access: { table: 'read' } },
  { method: 'POST', path: '/members', handler: 'functions/members/create-member.ts', auth: 'api_key', role: 'admin', access: { table: 'read_write' } },
  { method: 'PATCH', path: '/members/{user_id}', handler: 'functions/members/update-member.ts', auth: 'api_key', role: 'admin', access: { table: 'read_write' } },
  { method: 'DELETE', path: '/members/{user_id}', handler: 'functions/members/delete-member.ts', auth: 'api_key', role: 'admin', access: { table: 'read_write' } },

  { method: 'GET', path: '/usage', handler: 'functions/usage/get-usage.ts', auth: 'api_key', role: 'admin', access: { table: 'read' } },

  { method: 'GET', path: '/events', handler: 'functions/events/list-events.ts', auth: 'api_key', role: 'viewer', access: { table: 'read' } },
  { method: 'GET', path: '/events/stream', handler: 'functions/events/stream-events.ts', auth: 'api_key', role: 'viewer', access: { table: 'read_write' }, streaming: true },
];

/** Every authenticated route spends its tenant's request budget (shared/http/rate-limit.ts). */
export const routes: readonly RouteDefinition[] = declaredRoutes.map((route) => (route.auth === 'none' ? route : { ...route, access: { ...route.access, rateLimit: true } }));

/** The API's authorizer: resolves `Authorization: Bearer <key or access token>` to a tenant (and binds a person's first sign-in). */
export const authorizer = { handler: 'functions/auth/authorize.ts', access: { table: 'read_write' } as RouteAccess, cacheTtlSeconds: 60 };
