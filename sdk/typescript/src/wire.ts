import type { paths } from './generated/api.d.ts';
import type { Approval, Artifact, Claim, HeartbeatAnswer, Task, ToolCall } from './types.ts';

/**
 * The protocol as the service's OpenAPI document declares it (`generated/api.d.ts`, written by
 * `npm run generate:api-types` from the same schemas the service validates with). The client's
 * request bodies are these types, and the answers below are checked against the SDK's own types
 * at compile time: a change of the protocol that the SDK does not follow fails `tsc`.
 */
type PostOf<P extends keyof paths> = paths[P] extends { post: infer Operation } ? Operation : never;

/** What a protocol POST takes as its JSON body. */
export type RequestBody<P extends keyof paths> = PostOf<P> extends { requestBody?: { content: { 'application/json': infer Body } } } ? Body : never;

/** What a protocol POST answers with `status`. */
export type Answer<P extends keyof paths, S extends number> = PostOf<P> extends { responses: { [K in S]: { content: { 'application/json': infer Body } } } } ? Body : never;

/** True when what the document declares fits the SDK's type; `never` (a compile error where used) otherwise. */
type Fits<Declared, Sdk> = [Declared] extends [Sdk] ? true : never;

export const answersFit: {
  claim: Fits<Answer<'/agents/{agent_id}/claims', 200>, Claim>;
  heartbeat: Fits<Answer<'/tasks/{task_id}/heartbeat', 200>, HeartbeatAnswer>;
  artifact: Fits<Answer<'/tasks/{task_id}/artifacts', 201>, Artifact>;
  approval: Fits<Answer<'/tasks/{task_id}/approvals', 201>, Approval>;
  toolCall: Fits<Answer<'/tasks/{task_id}/tool-calls', 200>, ToolCall>;
  complete: Fits<Answer<'/tasks/{task_id}/complete', 200>, Task>;
} = { claim: true, heartbeat: true, artifact: true, approval: true, toolCall: true, complete: true };
