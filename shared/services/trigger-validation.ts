import { agentRepository } from '#shared/adapters/dynamodb/agent-repository';
import { isCustomAgent } from '#shared/domain/agent-deployment';
import { manifestOf } from '#shared/services/agents';
import { findAgentListing } from '#shared/agents/directory';
import { builtInManifests, findManifestBySlug } from '#shared/agents/manifests';
import { scheduleProblems } from '#shared/domain/cron-schedule';
import { InvalidRequestError, type FieldError } from '#shared/domain/errors';
import { BUILT_IN_SCOPE, validateAgainstSchema } from '#shared/domain/input-validation';
import { pointerProblem } from '#shared/domain/json-pointer';
import { patternProblem, type TriggerSource, type TriggerTask } from '#shared/domain/trigger';
import { integrationRepository } from '#shared/adapters/dynamodb/integration-repository';
import type { IntegrationKind } from '#shared/domain/integration';

/** Every artifact type some built-in agent emits: what an event trigger may wait for. */
const KNOWN_ARTIFACT_TYPES = new Set(builtInManifests.flatMap((manifest) => manifest.task_types.flatMap((taskType) => taskType.artifact_types)));

/** A trigger's integration must be the tenant's own, of the kind its source needs. */
async function integrationProblems(tenantId: string, integrationId: string, kind: IntegrationKind): Promise<FieldError[]> {
  const integration = await integrationRepository.get(tenantId, integrationId);
  if (!integration) return [{ path: 'body.source.integration_id', message: `no integration '${integrationId}' (GET /v1/integrations lists them)` }];
  if (integration.kind !== kind) return [{ path: 'body.source.integration_id', message: `must be a ${kind} integration; '${integrationId}' is ${integration.kind}` }];
  return [];
}

/**
 * A trigger's source and task as the service keeps them (agents by canonical slug), or a 400
 * naming every field that is wrong: a bad cron or zone, an unknown or undeployed agent, a task
 * type it lacks, input that breaks the task type's schema (checked now unless a mapping fills it
 * at run time), a pointer that is not RFC 6901, an artifact type no agent emits.
 */
export async function validatedTrigger(tenantId: string, source: TriggerSource, task: TriggerTask, now: Date = new Date()): Promise<{ source: TriggerSource; task: TriggerTask }> {
  const problems: FieldError[] = [];
  let checkedSource = source;
  // The tenant's custom agents take triggers like the built-ins: their artifact types can start tasks, and they can run them.
  const customAgents = (await agentRepository.list(tenantId)).filter(isCustomAgent);
  const knownArtifactTypes = new Set([...KNOWN_ARTIFACT_TYPES, ...customAgents.flatMap((agent) => agent.manifest.task_types.flatMap((taskType) => taskType.artifact_types))]);
  if (source.type === 'schedule') {
    const schedule = scheduleProblems(source).map((problem) => ({ path: `body.source.${problem.path}`, message: problem.message }));
    problems.push(...schedule);
    // A schedule that can never run again is a mistake, and EventBridge refuses an EndDate in the past.
    if (schedule.length === 0 && source.end_at && Date.parse(source.end_at) <= now.getTime()) problems.push({ path: 'body.source.end_at', message: 'is in the past: the schedule would never run' });
    if (task.input_mapping) problems.push({ path: 'body.task.input_mapping', message: 'applies to event triggers only: a schedule has nothing to map from' });
  } else if (source.type === 'mail') {
    for (const [field, pattern] of Object.entries(source.match ?? {})) {
      const problem = pattern === undefined ? undefined : patternProblem(pattern);
      if (problem) problems.push({ path: `body.source.match.${field}`, message: problem });
    }
    if (source.integration_id) problems.push(...(await integrationProblems(tenantId, source.integration_id, 'email')));
  } else if (source.type === 'chat') {
    const problem = patternProblem(source.pattern);
    if (problem) problems.push({ path: 'body.source.pattern', message: problem });
    problems.push(...(await integrationProblems(tenantId, source.integration_id, 'slack')));
  } else {
    if (!knownArtifactTypes.has(source.artifact_type)) problems.push({ path: 'body.source.artifact_type', message: `no agent emits '${source.artifact_type}'; one of: ${[...knownArtifactTypes].sort().join(', ')}` });
    if (source.agent !== undefined) {
      const slug = findAgentListing(source.agent)?.slug ?? customAgents.find((agent) => agent.agent_slug === source.agent)?.agent_slug;
      if (!slug) problems.push({ path: 'body.source.agent', message: `unknown agent '${source.agent}'` });
      else checkedSource = { ...source, agent: slug };
    }
  }

  const listing = findAgentListing(task.agent);
  const deployment = await agentRepository.findBySlug(tenantId, listing?.slug ?? task.agent);
  if (!deployment) problems.push({ path: 'body.task.agent', message: listing ? `agent '${task.agent}' is not deployed for this tenant (POST /v1/agents/deploy)` : `unknown agent '${task.agent}'` });
  const manifest = deployment ? manifestOf(deployment) : listing ? findManifestBySlug(listing.slug) : undefined;
  const taskType = manifest?.task_types.find((candidate) => candidate.task_type === task.task_type);
  if (manifest && !taskType) problems.push({ path: 'body.task.task_type', message: `must be one of: ${manifest.task_types.map((candidate) => candidate.task_type).join(', ')}` });
  for (const [field, pointer] of Object.entries(task.input_mapping ?? {})) {
    const problem = pointerProblem(pointer);
    if (problem) problems.push({ path: `body.task.input_mapping.${field}`, message: problem });
  }
  // With a mapping the input is complete only at run time; a mapped input that breaks the schema fails its task `malformed_input`.
  if (taskType && !task.input_mapping) {
    problems.push(...validateAgainstSchema(taskType.input_schema, task.input, deployment && isCustomAgent(deployment) ? tenantId : BUILT_IN_SCOPE).map((violation) => ({ path: `body.task.${violation.path}`, message: violation.message })));
  }
  if (problems.length > 0) throw new InvalidRequestError('The trigger is not valid.', problems);
  return { source: checkedSource, task: { ...task, agent: deployment!.agent_slug } };
}
