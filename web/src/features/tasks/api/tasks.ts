import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client';
import { usePagedList } from '../../../api/paged';
import type { components } from '../../../api/schema';
import { taskKeys } from './task-keys';

export type Task = components['schemas']['Task'] & { trigger?: { type: string; user_id?: string; trigger_id?: string } };
export type Artifact = components['schemas']['Artifact'];
export type TaskStatus = Task['status'];
export const TASK_STATUSES: TaskStatus[] = ['queued', 'pending', 'running', 'awaiting_approval', 'complete', 'failed', 'cancelled'];
export const FINISHED: TaskStatus[] = ['complete', 'failed', 'cancelled'];

export interface TaskFilters {
  status?: TaskStatus;
  agent?: string;
  /** The tasks started in that session. */
  session_id?: string;
  /** The tasks that trigger started. */
  trigger_id?: string;
}

/** GET /tasks, newest first, filtered by status and agent, a page at a time. */
export function useTasks(filters: TaskFilters) {
  return usePagedList(taskKeys.list({ ...filters }), async (cursor) => {
    const page = data(await api().GET('/tasks', { params: { query: { ...filters, cursor, limit: 25 } } }));
    return { items: page.tasks as Task[], next_cursor: page.next_cursor };
  });
}

/** GET /tasks/{task_id}; polled slowly while unfinished, beside the live stream that refreshes it. */
export function useTask(taskId: string) {
  return useQuery({
    queryKey: taskKeys.detail(taskId),
    queryFn: async () => data(await api().GET('/tasks/{task_id}', { params: { path: { task_id: taskId } } })) as Task,
    refetchInterval: (query) => (query.state.data && FINISHED.includes(query.state.data.status) ? false : 15_000),
  });
}

/** GET /tasks/{task_id}/artifacts: the artifacts with their data. */
export function useTaskArtifacts(taskId: string, count: number) {
  return useQuery({
    queryKey: [...taskKeys.artifacts(taskId), count],
    queryFn: async () => data(await api().GET('/tasks/{task_id}/artifacts', { params: { path: { task_id: taskId } } })).artifacts,
    enabled: count > 0,
  });
}

/** Cancels a task the way its shape says: POST .../cancel (by agent id) or DELETE (by slug). */
export function useCancelTask(task: Task) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const path = { task_id: task.task_id };
      if (task.agent_id) data(await api().POST('/tasks/{task_id}/cancel', { params: { path } }));
      else data(await api().DELETE('/tasks/{task_id}', { params: { path } }));
    },
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: taskKeys.detail(task.task_id) }), client.invalidateQueries({ queryKey: taskKeys.lists })]),
  });
}
