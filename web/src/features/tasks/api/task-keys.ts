/** Query keys of tasks, in one place so mutations and the live stream invalidate the right ones. */
export const taskKeys = {
  lists: ['tasks', 'list'] as const,
  list: (filters: Record<string, string | undefined>) => ['tasks', 'list', filters] as const,
  detail: (taskId: string) => ['tasks', taskId] as const,
  artifacts: (taskId: string) => ['tasks', taskId, 'artifacts'] as const,
  events: (taskId: string) => ['tasks', taskId, 'events'] as const,
};
