import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client';
import { usePagedList } from '../../../api/paged';
import type { components } from '../../../api/schema';
import { FINISHED, type Task } from '../../tasks/api/tasks';

export type Session = components['schemas']['Session'];
export type SessionMessage = components['schemas']['SessionMessage'];
export type SessionStatus = Session['status'];

export const sessionKeys = {
  all: ['sessions'] as const,
  lists: ['sessions', 'list'] as const,
  list: (filters: Record<string, string | undefined>) => ['sessions', 'list', filters] as const,
  detail: (id: string) => ['sessions', 'detail', id] as const,
  messages: (id: string) => ['sessions', 'messages', id] as const,
  tasks: (id: string) => ['sessions', 'tasks', id] as const,
};

/** How often the transcript and the session's tasks are read again while any of its tasks runs. */
const POLL_MS = 2_000;
/** After a task ends, how long the agent's report on it is waited for. */
const REPORT_WAIT_MS = 60_000;

/** GET /sessions, newest first, by status and agent, a page at a time. */
export function useSessions(filters: { status?: SessionStatus; agent?: string }) {
  return usePagedList(sessionKeys.list({ ...filters }), async (cursor) => {
    const page = data(await api().GET('/sessions', { params: { query: { ...filters, cursor, limit: 25 } } }));
    return { items: page.sessions, next_cursor: page.next_cursor };
  });
}

/** GET /sessions/{session_id}. */
export function useSession(sessionId: string, enabled = true) {
  return useQuery({
    queryKey: sessionKeys.detail(sessionId),
    queryFn: async () => data(await api().GET('/sessions/{session_id}', { params: { path: { session_id: sessionId } } })),
    enabled: enabled && Boolean(sessionId),
  });
}

/** The tasks started in the session (GET /tasks?session_id=, up to 100), read again every 2 s while any has not ended. */
export function useSessionTasks(sessionId: string) {
  return useQuery({
    queryKey: sessionKeys.tasks(sessionId),
    queryFn: async () => data(await api().GET('/tasks', { params: { query: { session_id: sessionId, limit: 100 } } })).tasks as Task[],
    refetchInterval: (query) => (query.state.data?.some((task) => !FINISHED.includes(task.status)) ? POLL_MS : false),
  });
}

/** Pages of the transcript read to the end (bounded), oldest first. */
const MAX_PAGES = 20;

async function loadTranscript(sessionId: string): Promise<SessionMessage[]> {
  const messages: SessionMessage[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = data(await api().GET('/sessions/{session_id}/messages', { params: { path: { session_id: sessionId }, query: { limit: 100, cursor } } }));
    messages.push(...answer.messages);
    if (!answer.next_cursor) break;
    cursor = answer.next_cursor;
  }
  return messages;
}

/**
 * Whether the transcript may still change on its own: a task of the session has not ended, or one
 * ended recently and the agent's message about it has not arrived yet.
 */
export function awaitingAgent(tasks: Task[], messages: SessionMessage[], now = Date.now()): boolean {
  const reported = new Set(messages.filter((message) => message.role === 'agent' && message.task_id).map((message) => message.task_id));
  return tasks.some((task) => {
    if (!FINISHED.includes(task.status)) return true;
    const ended = Date.parse(task.completed_at ?? '');
    return !reported.has(task.task_id) && (Number.isNaN(ended) || now - ended < REPORT_WAIT_MS);
  });
}

/** GET /sessions/{session_id}/messages, oldest first; read again every 2 s while the agent has something to say. */
export function useTranscript(sessionId: string, tasks: Task[] | undefined) {
  return useQuery({
    queryKey: sessionKeys.messages(sessionId),
    queryFn: () => loadTranscript(sessionId),
    refetchInterval: (query) => (tasks && query.state.data && awaitingAgent(tasks, query.state.data) ? POLL_MS : false),
  });
}

/** The mutations of sessions, each refreshing what it changes. */
export function useSessionMutations() {
  const client = useQueryClient();
  return {
    create: useMutation({
      mutationFn: async (body: { agent: string; title?: string }) => data(await api().POST('/sessions', { body })),
      onSuccess: () => client.invalidateQueries({ queryKey: sessionKeys.lists }),
    }),
    send: useMutation({
      mutationFn: async ({ sessionId, ...body }: { sessionId: string; content: string; task_type?: string; input?: Record<string, unknown> }) =>
        data(await api().POST('/sessions/{session_id}/messages', { params: { path: { session_id: sessionId } }, body })),
      onSuccess: (_message, { sessionId }) =>
        Promise.all([
          client.invalidateQueries({ queryKey: sessionKeys.messages(sessionId) }),
          client.invalidateQueries({ queryKey: sessionKeys.tasks(sessionId) }),
          client.invalidateQueries({ queryKey: sessionKeys.detail(sessionId) }),
          client.invalidateQueries({ queryKey: sessionKeys.lists }),
        ]),
    }),
    close: useMutation({
      mutationFn: async (sessionId: string) => data(await api().POST('/sessions/{session_id}/close', { params: { path: { session_id: sessionId } }, body: {} })),
      onSuccess: (session) => {
        client.setQueryData(sessionKeys.detail(session.session_id), session);
        return client.invalidateQueries({ queryKey: sessionKeys.lists });
      },
    }),
  };
}
