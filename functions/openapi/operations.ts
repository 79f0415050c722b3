import type { OperationSpec, SuccessResponse } from '#shared/http/openapi/operation';
import { agentConfigBody, agentParams, deployAgentBody } from '#functions/agents/schemas';
import { approvalParams, listApprovalsQuery, resolveApprovalBody } from '#functions/approvals/schemas';
import { artifactParams, listArtifactsQuery } from '#functions/artifacts/schemas';
import { apiKeyParams, createApiKeyBody, listApiKeysQuery } from '#functions/api-keys/schemas';
import { invitationParams } from '#functions/invitations/schemas';
import { createMemberBody, listMembersQuery, memberParams, updateMemberBody } from '#functions/members/schemas';
import { listEventsQuery, streamHeaders, streamQuery } from '#functions/events/schemas';
import { problemTypeParams } from '#functions/problems/schemas';
import * as scans from '#functions/scans/schemas';
import * as sessions from '#functions/sessions/schemas';
import * as triggers from '#functions/triggers/schemas';
import * as integrations from '#functions/integrations/schemas';
import { noQuery, updateRetentionBody } from '#functions/settings/schemas';
import { createTaskBody, listTasksQuery, taskParams } from '#functions/tasks/schemas';
import * as worker from '#functions/tasks/worker-schemas';
import { usageQuery } from '#functions/usage/schemas';
import * as webhooks from '#functions/webhooks/schemas';

const ok = (schema: string, description = 'OK'): Record<number, SuccessResponse> => ({ 200: { description, schema } });
const created = (schema: string): Record<number, SuccessResponse> => ({ 201: { description: 'Created', schema } });
const accepted = (schema: string): Record<number, SuccessResponse> => ({ 202: { description: 'Accepted', schema } });
const noContent: Record<number, SuccessResponse> = { 204: { description: 'Deleted', empty: true } };

/**
 * The OpenAPI description of every route of functions/routes.ts, keyed `METHOD /path`: a summary,
 * the request schemas its handler validates with (the same objects, from the schemas modules), its
 * success answers and a request example for each writing route. A route missing here fails
 * test/unit/openapi/document.test.ts, naming it.
 */
export const operations: Record<string, OperationSpec> = {
  'GET /health': { summary: 'Check that the service is up', request: {}, responses: ok('Health') },
  'GET /problems': { summary: 'List the problem types errors answer with', request: {}, responses: ok('ProblemTypeList') },
  'GET /problems/{code}': { summary: 'Describe one problem type', request: { params: problemTypeParams }, responses: ok('ProblemType') },
  'GET /openapi.json': { summary: 'This OpenAPI document', request: {}, responses: ok('OpenApiDocument') },

  'POST /agents/deploy': {
    summary: 'Deploy a built-in agent, or a custom agent of your own with its manifest',
    request: { body: deployAgentBody },
    responses: created('Agent'),
    example: {
      agent_slug: 'invoice-checker',
      name: 'Invoice checker',
      manifest: {
        description: 'Checks supplier invoices and mails the accounts team.',
        task_types: [
          {
            task_type: 'invoice.check',
            description: 'Checks one invoice against its purchase order.',
            input_schema: { type: 'object', required: ['invoice_number', 'amount'], properties: { invoice_number: { type: 'string' }, amount: { type: 'number' } } },
            artifact_types: ['invoice.check_report'],
            tools: ['mail.send'],
          },
        ],
      },
    },
  },
  'POST /agents/{agent_id}/claims': {
    summary: "Claim the next task of the key's agent, waiting up to wait_seconds (worker protocol)",
    request: { params: agentParams, body: worker.claimBody },
    responses: { ...ok('Claim', 'A task and its lease'), 204: { description: 'Nothing to claim within the wait', empty: true } },
    example: { wait_seconds: 20, lease_seconds: 60 },
  },
  'GET /agents': { summary: 'List deployed agents', request: {}, responses: ok('AgentList') },
  'GET /agents/catalog': { summary: 'List the agents one can deploy', request: {}, responses: ok('AgentCatalog') },
  'GET /agents/{agent_id}': { summary: 'Get a deployed agent (by id or slug)', request: { params: agentParams }, responses: ok('Agent') },
  'GET /agents/{agent_id}/manifest': { summary: "Get a deployed agent's manifest", request: { params: agentParams }, responses: ok('AgentManifest') },
  'PATCH /agents/{agent_id}/config': { summary: "Change a deployed agent's settings", request: { params: agentParams, body: agentConfigBody }, responses: ok('Agent'), example: { approval_ttl_hours: 12 } },

  'POST /tasks': {
    summary: 'Create a task (`agent`: queued, 202; `agent_id`: pending, 201)',
    request: { body: createTaskBody },
    responses: { ...created('Task'), ...accepted('Task') },
    example: { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } },
  },
  'GET /tasks': { summary: 'List tasks, newest first', request: { query: listTasksQuery }, responses: ok('TaskList') },
  'GET /tasks/{task_id}': { summary: 'Get a task', request: { params: taskParams }, responses: ok('Task') },
  'DELETE /tasks/{task_id}': { summary: 'Cancel a task (slug shape)', request: { params: taskParams }, responses: ok('TaskCancellation') },
  'POST /tasks/{task_id}/cancel': { summary: 'Cancel a task', request: { params: taskParams }, responses: ok('Task') },
  'POST /tasks/{task_id}/heartbeat': { summary: "Extend a worker's lease, with progress; says whether the task was cancelled", request: { params: taskParams, body: worker.heartbeatBody }, responses: ok('Heartbeat'), example: { lease_id: 'lse_01J9Z8Q4M6V1T2W3X4Y5Z6A7B8', progress: 0.5, message: 'Checked the purchase order' } },
  'POST /tasks/{task_id}/artifacts': { summary: "Emit an artifact of a type the agent's manifest declares (worker protocol)", request: { params: taskParams, body: worker.workerArtifactBody }, responses: created('Artifact'), example: { lease_id: 'lse_01J9Z8Q4M6V1T2W3X4Y5Z6A7B8', type: 'invoice.check_report', data: { invoice_number: 'INV-42', matches_order: true } } },
  'POST /tasks/{task_id}/approvals': {
    summary: 'Ask a person first: the task waits for the decision and the lease ends (worker protocol)',
    request: { params: taskParams, body: worker.workerApprovalBody },
    responses: created('Approval'),
    example: { lease_id: 'lse_01J9Z8Q4M6V1T2W3X4Y5Z6A7B8', title: 'Tell accounts about INV-42', description: 'The invoice matches its order.', action: { type: 'mail.send', to: 'accounts@example.com', subject: 'INV-42 checked', body: 'INV-42 matches PO-7.' } },
  },
  'POST /tasks/{task_id}/tool-calls': { summary: 'Call a read tool through the tool proxy (worker protocol)', request: { params: taskParams, body: worker.workerToolCallBody }, responses: ok('ToolCall'), example: { lease_id: 'lse_01J9Z8Q4M6V1T2W3X4Y5Z6A7B8', tool: 'github.read_file', args: { repository: 'acme/invoices', path: 'INV-42.json' } } },
  'POST /tasks/{task_id}/complete': { summary: 'Complete the task (worker protocol)', request: { params: taskParams, body: worker.leaseBody }, responses: ok('Task'), example: { lease_id: 'lse_01J9Z8Q4M6V1T2W3X4Y5Z6A7B8' } },
  'POST /tasks/{task_id}/fail': { summary: 'Fail the task with an error code (worker protocol)', request: { params: taskParams, body: worker.workerFailBody }, responses: ok('Task'), example: { lease_id: 'lse_01J9Z8Q4M6V1T2W3X4Y5Z6A7B8', error: { code: 'invoice_unreadable', message: 'The PDF has no text layer.' } } },
  'POST /tasks/{task_id}/release': { summary: 'Give the task back to the queue, e.g. when shutting down (worker protocol)', request: { params: taskParams, body: worker.leaseBody }, responses: ok('Task'), example: { lease_id: 'lse_01J9Z8Q4M6V1T2W3X4Y5Z6A7B8' } },
  'GET /tasks/{task_id}/artifacts': { summary: "List a task's artifacts", request: { params: taskParams }, responses: ok('TaskArtifacts') },

  'POST /sessions': {
    summary: 'Open a session with a deployed agent',
    request: { body: sessions.createSessionBody },
    responses: created('Session'),
    example: { agent: 'ai-readiness', title: 'Vendor questionnaire, ACME', metadata: { ticket: 'SEC-1042' }, idle_timeout_minutes: 120 },
  },
  'GET /sessions': { summary: 'List sessions, newest first', request: { query: sessions.listSessionsQuery }, responses: ok('SessionList') },
  'GET /sessions/{session_id}': { summary: 'Get a session', request: { params: sessions.sessionParams }, responses: ok('Session') },
  'POST /sessions/{session_id}/messages': {
    summary: 'Add a message to an open session (with `task_type`, it starts a task in the session)',
    request: { params: sessions.sessionParams, body: sessions.createMessageBody },
    responses: created('SessionMessage'),
    example: { content: 'Audit our systems before we answer the questionnaire.', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } },
  },
  'GET /sessions/{session_id}/messages': { summary: "List a session's messages, oldest first", request: { params: sessions.sessionParams, query: sessions.listMessagesQuery }, responses: ok('SessionMessageList') },
  'POST /sessions/{session_id}/close': { summary: 'Close a session', request: { params: sessions.sessionParams, body: sessions.closeSessionBody }, responses: ok('Session'), example: { reason: 'questionnaire sent' } },

  'POST /triggers': {
    summary: 'Create a trigger: a schedule or an event that starts tasks (a mail trigger answers 409 `inbound_mail_unavailable` where the deployment receives no mail)',
    request: { body: triggers.createTriggerBody },
    responses: created('Trigger'),
    example: { name: 'Monday audit', source: { type: 'schedule', cron: '0 8 * * 1', timezone: 'Europe/Berlin', overlap: 'skip' }, task: { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } } },
  },
  'POST /integrations': {
    summary: 'Connect an integration (GitHub, Slack or email): the credentials are checked with the provider, stored encrypted and never returned',
    request: { body: integrations.createIntegrationBody },
    responses: created('Integration'),
    example: { kind: 'github', name: 'Our GitHub', credentials: { token: 'ghp_exampletoken' }, settings: { api_url: 'https://api.github.com' } },
  },
  'GET /integrations': { summary: 'List integrations, newest first', request: { query: integrations.listIntegrationsQuery }, responses: ok('IntegrationList') },
  'GET /integrations/{integration_id}': { summary: 'Get an integration (never its credentials)', request: { params: integrations.integrationParams }, responses: ok('Integration') },
  'PATCH /integrations/{integration_id}': {
    summary: 'Rename an integration, change its settings, or replace its credentials (checked again; a revoked integration becomes active)',
    request: { params: integrations.integrationParams, body: integrations.updateIntegrationBody },
    responses: ok('Integration'),
    example: { settings: { approvals_channel: 'C0123APPROVALS' } },
  },
  'DELETE /integrations/{integration_id}': { summary: 'Delete an integration and destroy its credentials', request: { params: integrations.integrationParams }, responses: noContent },
  'POST /integrations/{integration_id}/test': { summary: 'Check the stored credentials with one provider call (refused credentials revoke the integration)', request: { params: integrations.integrationParams }, responses: ok('IntegrationTest'), errors: [503] },
  'POST /integrations/{integration_id}/slack/interactions': {
    summary: "Slack's interactivity requests (button clicks, modal submissions); no API key, verified with the app's signing secret",
    request: { params: integrations.integrationParams },
    responses: { 200: { description: 'Acknowledged: an empty text/plain body, or JSON (a modal\'s `response_action: "errors"`)', schema: 'SlackAnswer', media: ['text/plain'] } },
    errors: [401, 503],
  },
  'POST /integrations/{integration_id}/slack/events': {
    summary: "Slack's Events API (channel messages, url_verification); no API key, verified with the app's signing secret",
    request: { params: integrations.integrationParams },
    responses: { 200: { description: 'Acknowledged: an empty text/plain body, or JSON (the `url_verification` challenge)', schema: 'SlackAnswer', media: ['text/plain'] } },
    errors: [401, 503],
  },

  'GET /triggers': { summary: 'List triggers, newest first', request: { query: triggers.listTriggersQuery }, responses: ok('TriggerList') },
  'GET /triggers/{trigger_id}': { summary: "Get a trigger (a schedule's next five runs included)", request: { params: triggers.triggerParams }, responses: ok('Trigger') },
  'PATCH /triggers/{trigger_id}': { summary: 'Change, pause (`enabled: false`) or resume a trigger (a mail `source` answers 409 `inbound_mail_unavailable` where the deployment receives no mail)', request: { params: triggers.triggerParams, body: triggers.updateTriggerBody }, responses: ok('Trigger'), example: { enabled: false } },
  'DELETE /triggers/{trigger_id}': { summary: 'Delete a trigger and its schedule', request: { params: triggers.triggerParams }, responses: noContent },
  'POST /triggers/{trigger_id}/fire': { summary: 'Run a trigger once now, as its schedule would', request: { params: triggers.triggerParams }, responses: ok('TriggerRun') },
  'GET /triggers/{trigger_id}/runs': { summary: "List a trigger's runs, newest first", request: { params: triggers.triggerParams, query: triggers.listRunsQuery }, responses: ok('TriggerRunList') },

  'GET /artifacts': { summary: "List a task's artifacts", request: { query: listArtifactsQuery }, responses: ok('ArtifactList'), errors: [404] },
  'GET /artifacts/{artifact_id}': { summary: 'Get an artifact', request: { params: artifactParams }, responses: ok('Artifact') },
  'DELETE /artifacts/{artifact_id}': { summary: 'Delete an artifact', request: { params: artifactParams }, responses: noContent },

  'GET /approvals': { summary: 'List approvals (pending by default)', request: { query: listApprovalsQuery }, responses: ok('ApprovalList') },
  'GET /approvals/{approval_id}': { summary: 'Get an approval', request: { params: approvalParams }, responses: ok('Approval') },
  'POST /approvals/{approval_id}/resolve': {
    summary: 'Approve or deny (optionally approving a modified action)',
    request: { params: approvalParams, body: resolveApprovalBody },
    responses: ok('ApprovalResolution'),
    example: { decision: 'approved', comment: 'Looks right' },
  },

  'POST /webhooks': {
    summary: 'Subscribe an endpoint to events',
    request: { body: webhooks.createWebhookBody },
    responses: created('Webhook'),
    example: { url: 'https://hooks.example.com/gatehouse', events: ['task.complete'], secret: 'whsec-0123456789abcdef' },
  },
  'GET /webhooks': { summary: 'List webhook subscriptions', request: {}, responses: ok('WebhookList') },
  'GET /webhooks/{webhook_id}': { summary: 'Get a webhook subscription', request: { params: webhooks.webhookParams }, responses: ok('Webhook') },
  'PATCH /webhooks/{webhook_id}': { summary: 'Change or re-enable a subscription', request: { params: webhooks.webhookParams, body: webhooks.updateWebhookBody }, responses: ok('Webhook'), example: { events: ['task.complete', 'task.failed'] } },
  'DELETE /webhooks/{webhook_id}': { summary: 'Delete a subscription', request: { params: webhooks.webhookParams }, responses: noContent },
  'POST /webhooks/{webhook_id}/rotate-secret': {
    summary: 'Rotate the signing secret (both sign during the overlap)',
    request: { params: webhooks.webhookParams, body: webhooks.rotateSecretBody },
    responses: ok('Webhook'),
    example: { secret: 'whsec-rotated-0123456789', overlap_hours: 24 },
  },
  'GET /webhooks/{webhook_id}/deliveries': { summary: "List a subscription's deliveries", request: { params: webhooks.webhookParams, query: webhooks.listDeliveriesQuery }, responses: ok('DeliveryList') },
  'GET /webhooks/{webhook_id}/deliveries/{delivery_id}': { summary: 'Read a delivery with its request and responses', request: { params: webhooks.deliveryParams }, responses: ok('DeliveryDetail') },
  'POST /webhooks/{webhook_id}/deliveries/{delivery_id}/resend': { summary: 'Send a delivery again', request: { params: webhooks.deliveryParams }, responses: accepted('Delivery') },
  'POST /webhooks/{webhook_id}/recover': { summary: 'Queue failed deliveries since a time again', request: { params: webhooks.webhookParams, body: webhooks.recoverBody }, responses: accepted('DeliveryRecovery'), example: { since: '2026-01-01T00:00:00Z' } },

  'POST /projects': { summary: 'Create a scan project', request: { body: scans.createProjectBody }, responses: created('Project'), example: { name: 'Site', target: 'https://www.example.com/' } },
  'GET /projects': { summary: 'List projects', request: { query: scans.listQuery }, responses: ok('ProjectList') },
  'GET /projects/{project_id}': { summary: 'Get a project', request: { params: scans.projectParams }, responses: ok('Project') },
  'PATCH /projects/{project_id}': { summary: 'Change a project', request: { params: scans.projectParams, body: scans.updateProjectBody }, responses: ok('Project'), example: { name: 'Renamed site' } },
  'POST /projects/{project_id}/scans': { summary: 'Start a scan', request: { params: scans.projectParams, body: scans.createScanBody }, responses: created('Scan'), example: { detectors: ['security'] } },
  'GET /projects/{project_id}/scans': { summary: "List a project's scans", request: { params: scans.projectParams, query: scans.listScansQuery }, responses: ok('ScanList') },
  'GET /projects/{project_id}/findings/{rule_id}/history': { summary: "A rule's findings across scans", request: { params: scans.historyParams }, responses: ok('RuleHistory') },
  'GET /scans/{scan_id}': { summary: 'Get a scan, with progress or results', request: { params: scans.scanParams }, responses: ok('Scan') },
  'POST /scans/{scan_id}/cancel': { summary: 'Cancel a scan', request: { params: scans.scanParams }, responses: ok('ScanCancellation') },
  'GET /scans/{scan_id}/findings': { summary: "List a scan's findings", request: { params: scans.scanParams, query: scans.listFindingsQuery }, responses: ok('ScanFindings') },
  'GET /scans/{scan_id}/export': {
    summary: 'Download a scan report (JSON, SARIF, CSV or PDF)',
    request: { params: scans.scanParams, query: scans.exportQuery },
    responses: { 200: { description: 'The file', media: ['application/json', 'application/sarif+json', 'text/csv', 'application/pdf'] }, 303: { description: 'A large file: see Location', empty: true } },
  },
  'GET /findings/{finding_id}': { summary: 'Get a finding', request: { params: scans.findingParams }, responses: ok('Finding') },
  'PATCH /findings/{finding_id}': {
    summary: 'Dismiss or reopen a finding',
    request: { params: scans.findingParams, body: scans.updateFindingBody },
    responses: ok('Finding'),
    example: { status: 'dismissed', dismissed_reason: 'false_positive', comment: 'Checked by hand' },
  },

  'GET /settings/retention': { summary: 'Get the data retention settings', request: { query: noQuery }, responses: ok('RetentionSettings') },
  'PATCH /settings/retention': { summary: 'Change how long data is kept', request: { query: noQuery, body: updateRetentionBody }, responses: ok('RetentionSettings'), example: { retention_days: 30 } },

  'GET /me': { summary: 'Who is calling: principal, tenant and role (an invitee: no tenant yet)', request: {}, responses: ok('Me') },
  'GET /me/invitations': { summary: "The signed-in person's pending invitations", request: {}, responses: ok('InvitationList') },
  'POST /me/invitations/{tenant_id}/accept': { summary: "Accept a tenant's invitation: join it with the role offered", request: { params: invitationParams }, responses: ok('Member') },
  'POST /me/invitations/{tenant_id}/decline': { summary: "Decline a tenant's invitation", request: { params: invitationParams }, responses: noContent },
  'POST /api-keys': { summary: 'Create an API key (the key is shown in this answer only)', request: { body: createApiKeyBody }, responses: created('NewApiKey'), example: { name: 'CI pipeline', role: 'operator' } },
  'GET /api-keys': { summary: "List the tenant's API keys (never the keys themselves)", request: { query: listApiKeysQuery }, responses: ok('ApiKeyList') },
  'DELETE /api-keys/{key_id}': { summary: 'Revoke an API key', request: { params: apiKeyParams }, responses: noContent },
  'GET /members': { summary: "List the tenant's members (people and their roles)", request: { query: listMembersQuery }, responses: ok('MemberList') },
  'POST /members': { summary: 'Invite a person by email, with a role', request: { body: createMemberBody }, responses: created('Member'), example: { email: 'ana@example.com', role: 'approver' } },
  'PATCH /members/{user_id}': { summary: "Change a member's role", request: { params: memberParams, body: updateMemberBody }, responses: ok('Member'), example: { role: 'operator' } },
  'DELETE /members/{user_id}': { summary: 'Remove a member (their sign-ins stop working)', request: { params: memberParams }, responses: noContent },
  'GET /usage': { summary: "A month's usage (JSON, or CSV with format=csv or Accept: text/csv)", request: { query: usageQuery }, responses: { 200: { description: 'OK', schema: 'Usage', media: ['text/csv'] } } },

  'GET /events': { summary: 'List events, oldest first within the window', request: { query: listEventsQuery }, responses: ok('EventList') },
  'GET /events/stream': { summary: 'Follow events live (Server-Sent Events)', request: { query: streamQuery, headers: streamHeaders }, responses: { 200: { description: 'The event stream: one frame per event; it ends with an `event: error` frame, whose data is problem+json, once its caller is refused (re-checked at least every 30 s)', media: ['text/event-stream'] } }, errors: [406] },
};
