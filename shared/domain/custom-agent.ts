import type { AgentManifest, JsonSchema, TaskTypeManifest } from '#shared/agents/agent';
import { findAgentListing } from '#shared/agents/directory';
import type { FieldError } from '#shared/domain/errors';
import { schemaProblem } from '#shared/domain/input-validation';
import { TOOLS, toolNamed } from '#shared/domain/tools';

/**
 * Custom agents: programs of the tenant's own that run their tasks through the worker protocol
 * (docs/workers.md). Deploying one declares what it does in a manifest; Gatehouse holds its tasks
 * in a queue until a worker claims them, and checks everything a worker sends against it.
 */
export interface CustomTaskType {
  task_type: string;
  description: string;
  /** JSON Schema 2020-12 of the task's input; input that breaks it fails the task before any worker sees it. */
  input_schema: JsonSchema;
  /** The only artifact types a worker may emit for tasks of this type. */
  artifact_types: string[];
  /** The Gatehouse tools its workers may call (read tools) or ask approval for (acting tools). */
  tools?: string[];
}

export interface CustomAgentManifest {
  description?: string;
  task_types: CustomTaskType[];
}

/** A manifest's size as JSON: it is stored in the agent's item (400 KB at most) and read by every task creation. */
export const MAX_MANIFEST_BYTES = 64 * 1024;

/** Slugs a custom agent may not take: the built-ins' and the path segments beside `/agents/{agent_id}`. */
const RESERVED_SLUGS = new Set(['catalog', 'deploy']);

/** Why `slug` cannot name a custom agent, or undefined when it can. */
export function customSlugProblem(slug: string): string | undefined {
  if (findAgentListing(slug)) return `is a built-in agent; deploy it without a manifest`;
  if (RESERVED_SLUGS.has(slug)) return `is reserved`;
  if (!/^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$/.test(slug)) return 'must be 3 to 64 lowercase letters, digits and hyphens, starting and ending with a letter or digit';
  return undefined;
}

/**
 * What the structural checks (the request schema) cannot see: task types named twice, input
 * schemas that do not compile (or refer outside themselves, or hold a pattern the linear-time
 * engine refuses), tools Gatehouse does not have. Empty when the manifest is sound. The schemas
 * compile in the tenant's scope, so the first task of each finds it compiled.
 */
export function manifestProblems(manifest: CustomAgentManifest, tenantId: string): FieldError[] {
  const problems: FieldError[] = [];
  const seen = new Set<string>();
  manifest.task_types.forEach((taskType, index) => {
    const at = `body.manifest.task_types.${index}`;
    if (seen.has(taskType.task_type)) problems.push({ path: `${at}.task_type`, message: `'${taskType.task_type}' is declared twice` });
    seen.add(taskType.task_type);
    const problem = schemaProblem(taskType.input_schema, tenantId);
    if (problem) problems.push({ path: `${at}.input_schema`, message: `is not a usable JSON Schema (draft 2020-12): ${problem}` });
    if (new Set(taskType.artifact_types).size !== taskType.artifact_types.length) problems.push({ path: `${at}.artifact_types`, message: 'names an artifact type twice' });
    (taskType.tools ?? []).forEach((tool, toolIndex) => {
      if (!toolNamed(tool)) problems.push({ path: `${at}.tools.${toolIndex}`, message: `'${tool}' is not a Gatehouse tool; must be one of: ${Object.keys(TOOLS).join(', ')}` });
    });
  });
  return problems;
}

/** The task type of a custom manifest, or undefined. */
export function customTaskType(manifest: CustomAgentManifest, taskType: string): CustomTaskType | undefined {
  return manifest.task_types.find((candidate) => candidate.task_type === taskType);
}

/** A custom agent's manifest in the shape the built-ins publish (`GET /agents/{agent_id}/manifest`). */
export function publishedManifest(slug: string, name: string, manifest: CustomAgentManifest, version: string): AgentManifest & { custom: true } {
  const taskTypes: (TaskTypeManifest & { tools: string[] })[] = manifest.task_types.map((taskType) => ({
    task_type: taskType.task_type,
    description: taskType.description,
    input_schema: taskType.input_schema,
    artifact_types: taskType.artifact_types,
    tools: taskType.tools ?? [],
  }));
  return { slug, aliases: [], name, description: manifest.description ?? '', version, task_types: taskTypes, custom: true };
}
