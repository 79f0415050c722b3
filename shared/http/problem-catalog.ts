import { NotFoundError } from '#shared/domain/errors';
import { problemTypeUri, STATUS_TITLES } from '#shared/http/problem';

/**
 * Every problem `code` the service answers with, documented: what `GET /v1/problems` lists and
 * `GET /v1/problems/{code}` shows, the page each answer's `type` points at. Only those two routes
 * load this module; the answers themselves are built by shared/http/problem.ts.
 * test/unit/http-problem-catalog.test.ts finds every code the code base uses in this list.
 */
export interface ProblemType {
  code: string;
  /** null for the gateway's catch-alls, which keep the status API Gateway chose. */
  status: number | null;
  /** Defaults to the status's reason phrase, as the answers carry it. */
  title?: string;
  description: string;
}

const notFound = (resource: string, where: string): ProblemType => ({
  code: `${resource.replace(/ /g, '_')}_not_found`,
  status: 404,
  description: `No ${resource} with this id exists for the calling tenant (${where}). Another tenant's ${resource} is answered the same way, so ids reveal nothing.`,
});

export const PROBLEM_TYPES: readonly ProblemType[] = [
  { code: 'validation_error', status: 400, description: 'The request does not match the documented shape of the route: its body, query, path parameters or headers. `errors` lists every violation as `{path, message}`, with paths such as `body.metadata.build` or `query.limit`. Fix them and send the request again.' },
  { code: 'malformed_json', status: 400, description: 'The body is not valid JSON, is nested more than 20 levels deep, or has a `__proto__` or `constructor` key at some depth.' },
  { code: 'invalid_cursor', status: 400, description: 'The `cursor` query parameter is not one this listing handed out, or it is used with other filters. Pass the `next_cursor` of the previous page unchanged, with the same filters.' },
  { code: 'invalid_idempotency_key', status: 400, description: 'The `Idempotency-Key` header must be 1 to 255 visible ASCII characters.' },
  { code: 'path_parameter_too_long', status: 400, description: 'A path parameter is longer than any identifier can be (128 characters by default), so the request cannot name anything.' },
  { code: 'invalid_target', status: 400, description: "A project's or scan's target is not a URL Gatehouse can scan: it must be an http or https URL of a public host." },
  { code: 'unknown_agent', status: 400, description: "The named agent is neither one of the built-in agents nor a custom agent deployed in this tenant. `GET /v1/agents/catalog` lists the built-in agents, with their aliases and task types; a custom agent is deployed with its manifest (docs/workers.md)." },
  { code: 'invalid_manifest', status: 400, description: "A custom agent's manifest cannot be deployed: `errors` names each problem (a task type declared twice, an `input_schema` that is not a usable JSON Schema 2020-12, refers outside itself or holds a pattern the linear-time engine refuses, a tool Gatehouse does not have, a slug that is taken by a built-in agent or reserved). docs/workers.md describes the manifest." },
  { code: 'agent_not_deployed', status: 400, description: 'The agent exists but is not deployed for this tenant, or no deployed agent has this `agent_id`. Deploy it first with `POST /v1/agents/deploy`.' },
  { code: 'unknown_task_type', status: 400, description: 'The agent has no such task type. `errors` names the task types it has; `GET /v1/agents/catalog` lists them all.' },
  { code: 'artifact_type_not_declared', status: 400, description: "A worker emitted an artifact of a type its agent's manifest does not declare for the task's type. `errors` names the declared types." },
  { code: 'tool_not_declared', status: 400, description: "A worker called a tool, or asked approval for a tool's action, that its task type's `tools` in the manifest do not list." },
  { code: 'tool_requires_approval', status: 400, description: 'The tool acts on the outside world (`mail.send`, `github.create_issue`, `slack.post_message`): a worker asks for it with `POST /v1/tasks/{task_id}/approvals`, and Gatehouse carries it out once a person approved.' },
  { code: 'unknown_tool', status: 400, description: 'No Gatehouse tool has this name. docs/workers.md lists the tools.' },
  { code: 'session_agent_mismatch', status: 400, description: "The session belongs to another agent: a task joins a session only with the session's own agent. `GET /v1/sessions/{session_id}` shows its `agent`." },
  { code: 'integration_credentials_invalid', status: 400, description: 'The provider refused the credentials when Gatehouse checked them (GitHub 401, Slack `invalid_auth`, SMTP 535, ...). `detail` says what the provider answered; nothing was stored.' },
  { code: 'integration_credentials_required', status: 400, description: "A PATCH changes an integration's `settings.api_url` without `credentials`. Credentials go only to the provider URL they were checked against: send them again with the new URL, and they are checked there before anything is stored. Nothing was changed." },
  { code: 'integration_unreachable', status: 400, description: "The provider could not be reached to check the credentials (a wrong `api_url` or SMTP host, or the provider is down). Nothing was stored; check the settings and retry." },
  { code: 'retention_not_allowed_on_plan', status: 400, description: "The retention asked for is outside what the tenant's plan allows; `errors` names the allowed range." },
  { code: 'bad_request', status: 400, description: 'The request is not valid HTTP (broken framing or an unparsable request line), so it never reached a route.' },
  { code: 'unauthorized', status: 401, description: "The API key or a person's access token is missing, malformed, unknown, expired or revoked, or the person is not a member of any tenant. Send it as `Authorization: Bearer <key or token>`; credentials in the query string or other headers are not accepted. A person's token stops working once they are removed from the tenant." },
  { code: 'forbidden', status: 403, description: "The caller's role does not allow this route or action (docs/api.md lists each route's least role), or a key would get a role above its creator's. `detail` names the role needed." },
  { code: 'route_not_found', status: 404, description: 'No route matches the method and path. Every route is under `/v1`; a path that exists with another method answers this too.' },
  notFound('agent', 'deployed agents are found by `agent_id` or slug'),
  notFound('task', 'GET /v1/tasks lists them'),
  notFound('artifact', 'GET /v1/artifacts?task_id= lists them'),
  notFound('approval', 'GET /v1/approvals lists them'),
  notFound('webhook', 'GET /v1/webhooks lists them'),
  notFound('delivery', "GET /v1/webhooks/{webhook_id}/deliveries lists a webhook's deliveries"),
  notFound('project', 'GET /v1/projects lists them'),
  notFound('scan', "GET /v1/projects/{project_id}/scans lists a project's scans"),
  notFound('finding', "GET /v1/scans/{scan_id}/findings lists a scan's findings"),
  notFound('api key', 'GET /v1/api-keys lists them'),
  notFound('member', 'GET /v1/members lists them, by `user_id`'),
  { code: 'invitation_not_found', status: 404, description: 'The signed-in person has no pending invitation from this tenant: never invited, already answered, or withdrawn by its admin. `GET /v1/me/invitations` lists the pending ones, by `tenant_id`.' },
  notFound('session', 'GET /v1/sessions lists them'),
  notFound('trigger', 'GET /v1/triggers lists them'),
  notFound('integration', 'GET /v1/integrations lists them'),
  { code: 'problem_type_not_found', status: 404, description: 'No problem type has this code. `GET /v1/problems` lists them all.' },
  { code: 'not_acceptable', status: 406, description: 'The event stream serves `text/event-stream` only, and the `Accept` header excludes it.' },
  { code: 'request_timeout', status: 408, description: 'The request\'s headers or body arrived too slowly, so the connection was closed before any route ran. Send the whole request promptly.' },
  { code: 'agent_already_deployed', status: 409, description: 'The agent is already deployed for this tenant; `detail` names its `agent_id`. A tenant deploys each agent once.' },
  { code: 'task_not_cancellable', status: 409, description: 'The task has already ended (complete, failed or cancelled) and can no longer be cancelled.' },
  { code: 'invalid_task_transition', status: 409, description: "The task's state does not allow this change, for example completing a task that is not running." },
  { code: 'lease_lost', status: 409, description: "The worker's `lease_id` no longer holds the task: the lease ran out and the task went back to the queue, another worker claimed it, it was cancelled, it waits for an approval, or it ended (`detail` says which). Stop working on the task; do not complete or fail it." },
  { code: 'task_busy', status: 409, description: "Other writes of the same lease kept changing the task while this one was applied. Retry the request (with the same `Idempotency-Key`)." },
  { code: 'task_not_awaiting_approval', status: 409, description: 'The task that asked for this approval was cancelled, so the approval can no longer be resolved.' },
  { code: 'approval_already_resolved', status: 409, description: 'The approval was already approved or denied, by a person or by its expiry. A decision is final.' },
  { code: 'scan_not_cancellable', status: 409, description: 'The scan has already finished (completed, failed or cancelled) and can no longer be cancelled.' },
  { code: 'session_closed', status: 409, description: 'The session is closed (on request or after it was idle for its `idle_timeout_minutes`): it takes no new messages or tasks. Open a new session.' },
  { code: 'trigger_not_fireable', status: 409, description: 'Mail and chat triggers run for each mail sent to their address or each matching message in their channel; only schedule and event triggers can be fired by hand.' },
  { code: 'integration_url_unverified', status: 409, description: "The integration's provider URL is not the one its credentials were checked against (credentials stored before URLs were bound to them count as checked for the provider's public API only). Nothing was sent with them; give the credentials again with `PATCH /v1/integrations/{integration_id}` to check them at this URL. A tool call fails with the same code." },
  { code: 'integration_limit_reached', status: 409, description: 'The tenant has as many integrations as it may have (50 by default, `GATEHOUSE_MAX_INTEGRATIONS_PER_TENANT`). Delete one before connecting another.' },
  { code: 'custom_agent_limit', status: 409, description: 'The tenant has as many custom agents as it may deploy (50 by default, `GATEHOUSE_MAX_CUSTOM_AGENTS_PER_TENANT`).' },
  { code: 'inbound_mail_unavailable', status: 409, description: "This deployment receives no mail (Amazon SES does not receive mail in its AWS region, or it was deployed with the `gatehouse:inboundMail` option off), so a mail trigger cannot be created, and a trigger cannot be changed into one. Existing mail triggers can still be renamed, paused and deleted. Use a schedule, event or chat trigger instead." },
  { code: 'trigger_limit_reached', status: 409, description: 'The tenant has as many triggers as it may have (100 by default, `GATEHOUSE_MAX_TRIGGERS_PER_TENANT`). Delete one before creating another.' },
  { code: 'webhook_limit_reached', status: 409, description: 'The tenant has as many webhook subscriptions as it may have (25 by default, `GATEHOUSE_MAX_WEBHOOKS_PER_TENANT`). Delete one before creating another.' },
  { code: 'artifact_limit_reached', status: 409, description: 'The task already holds as many artifacts as a task may (100 by default, `GATEHOUSE_MAX_ARTIFACTS_PER_TASK`). Emit fewer, larger artifacts; deleting one frees its place.' },
  { code: 'member_exists', status: 409, description: 'The email is already a member of this tenant, or already invited to it. Change their role with `PATCH /v1/members/{user_id}`. (Whether the email belongs to another tenant is never said: inviting it answers 201 as for any email.)' },
  { code: 'already_member', status: 409, description: 'The person accepting an invitation is a member of a tenant already: a person belongs to one tenant. An admin of that tenant removes them first (`DELETE /v1/members/{user_id}`).' },
  { code: 'last_admin', status: 409, description: 'The change would leave the tenant without an admin: the last admin cannot be removed or given another role. Make another member admin first.' },
  { code: 'member_changed_concurrently', status: 409, description: "The tenant's members changed while this request was applied (another admin's change, or a first sign-in). Read them again and retry." },
  { code: 'settings_changed_concurrently', status: 409, description: "The tenant's settings changed while this request was applied. Read them again and retry." },
  { code: 'idempotency_key_reused', status: 409, description: 'This `Idempotency-Key` was already used with a different request within 24 hours. Use a new key for a new request.' },
  { code: 'idempotency_request_in_progress', status: 409, description: 'A request with this `Idempotency-Key` is still being processed. Retry shortly to get its answer.' },
  { code: 'payload_too_large', status: 413, description: 'The request body is larger than the service accepts (1 MiB by default; a body declared over the gateway\'s own 10 MiB is refused from its headers, before it is read).' },
  { code: 'artifact_too_large', status: 413, description: "The artifact's data would take the task's artifacts past the bytes a task may hold in all (8 MiB of JSON by default, `GATEHOUSE_MAX_ARTIFACT_BYTES_PER_TASK`); `detail` says how much the task holds. Deleting an artifact gives its bytes back." },
  { code: 'uri_too_long', status: 414, description: 'The query string is longer than the service accepts (2048 characters by default).' },
  { code: 'unsupported_media_type', status: 415, description: 'A request body must be JSON, sent with `Content-Type: application/json`.' },
  { code: 'rate_limited', status: 429, description: "The tenant spent its request budget, or the API as a whole is throttled. `Retry-After` says how many seconds to wait; the `RateLimit-*` headers show the tenant's budget." },
  { code: 'headers_too_large', status: 431, description: 'The request line and headers together are too large.' },
  { code: 'internal_error', status: 500, description: "An unexpected error. Nothing about it is shown; quote the request id in `detail` when reporting it." },
  { code: 'service_unavailable', status: 503, description: 'A dependency of the service (the database, a queue) is not answering, or the API key could not be checked. Nothing was changed; retry after `Retry-After` seconds.' },
  { code: 'request_rejected', status: null, title: 'Request rejected', description: 'API Gateway refused the request before any route ran, for a reason it has no other code for; the answer keeps its 4xx status and `detail` is its message.' },
  { code: 'gateway_error', status: null, title: 'Gateway error', description: 'API Gateway could not complete the request (an integration failure or timeout); the answer keeps its 5xx status. Retry; quote the request id in `detail` if it persists.' },
];

/** The problem type a code names, with hyphens (as in `type` URIs) or underscores. */
export function findProblemType(code: string): ProblemType | undefined {
  const normalised = code.replace(/-/g, '_');
  return PROBLEM_TYPES.find((problem) => problem.code === normalised);
}

/** A problem type as `GET /v1/problems` and `GET /v1/problems/{code}` show it. */
export function renderProblemType(problem: ProblemType) {
  return {
    type: problemTypeUri(problem.code),
    code: problem.code,
    title: problem.title ?? STATUS_TITLES[problem.status ?? 0] ?? 'Error',
    status: problem.status,
    description: problem.description,
  };
}

/** Every problem type, as `GET /v1/problems` lists them. */
export function listProblemTypes() {
  return PROBLEM_TYPES.map(renderProblemType);
}

/** The documentation of one problem type (hyphenated code or not), or 404 problem_type_not_found. */
export function describeProblemType(code: string) {
  const problem = findProblemType(code);
  if (!problem) throw new NotFoundError('problem_type', code);
  return renderProblemType(problem);
}
