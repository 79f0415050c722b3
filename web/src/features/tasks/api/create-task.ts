import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client';
import { taskKeys } from './task-keys';

export interface NewTask {
  agent_id: string;
  task_type: string;
  input: Record<string, unknown>;
  priority?: 'low' | 'normal' | 'high';
}

/** POST /tasks for a deployed agent (by its id); a retried click sends the same Idempotency-Key. */
export function useCreateTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ task, idempotencyKey }: { task: NewTask; idempotencyKey: string }) => data(await api().POST('/tasks', { body: task, headers: { 'Idempotency-Key': idempotencyKey } })),
    onSuccess: () => client.invalidateQueries({ queryKey: taskKeys.lists }),
  });
}
