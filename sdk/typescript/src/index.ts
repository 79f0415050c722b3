export { createWorker, type Worker } from './worker.ts';
export type { WorkerOptions } from './options.ts';
export type { TaskHandler, TaskHandlers } from './task-run.ts';
export type { TaskContext } from './context.ts';
export { GatehouseError, TaskAborted, TaskFailure, TaskSuspended, ToolCallError, type AbortReason } from './errors.ts';
export type { Logger, LogFields } from './logger.ts';
export type { RetryOptions } from './backoff.ts';
export type { Action, ApprovalRequest, ArtifactRef, Decision, JsonObject, Task, TaskStatus } from './types.ts';
