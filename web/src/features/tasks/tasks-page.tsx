import { Link, useSearchParams } from 'react-router';
import { LoadMore } from '../../components/load-more';
import { Page } from '../../components/page';
import { QueryState } from '../../components/query-state';
import { useAgents } from '../agents/api/agents';
import { useTasks, type TaskStatus } from './api/tasks';
import { TaskFilters, type TaskFilterValues } from './components/task-filters';
import { TasksTable } from './components/tasks-table';

/** Tasks: newest first, filtered by status, agent and task type, a page at a time. */
export function TasksPage() {
  const [params, setParams] = useSearchParams();
  const values: TaskFilterValues = { status: params.get('status') ?? '', agent: params.get('agent') ?? '', type: params.get('type') ?? '' };
  // Set by links from a trigger or a session page: the tasks it started.
  const triggerId = params.get('trigger_id') ?? undefined;
  const sessionId = params.get('session_id') ?? undefined;
  const tasks = useTasks({ status: (values.status || undefined) as TaskStatus | undefined, agent: values.agent || undefined, trigger_id: triggerId, session_id: sessionId });
  const agents = useAgents();
  const shown = values.type ? tasks.items.filter((task) => task.task_type.includes(values.type)) : tasks.items;
  const filtered = Boolean(values.status || values.agent || values.type || triggerId || sessionId);
  return (
    <Page title="Tasks" intro="Every task of your tenant, newest first.">
      <TaskFilters
        values={values}
        agents={agents.data?.map((agent) => agent.agent_slug) ?? []}
        onChange={(next) => setParams(Object.fromEntries(Object.entries({ ...next, trigger_id: triggerId, session_id: sessionId }).filter(([, value]) => value)) as Record<string, string>, { replace: true })}
      />
      {(triggerId || sessionId) && (
        <p>
          Only the tasks {triggerId ? <>trigger <code>{triggerId}</code> started</> : <>started in session <code>{sessionId}</code></>}. <Link to="/tasks">All tasks</Link>
        </p>
      )}
      <QueryState
        query={tasks}
        loading="Loading tasks…"
        isEmpty={() => shown.length === 0}
        empty={filtered ? <p>No task matches these filters. Clear a filter to see more.</p> : <p>No tasks yet. Run one from a card on the Agents page.</p>}
      >
        {() => <TasksTable tasks={shown} caption="Tasks, newest first" />}
      </QueryState>
      <LoadMore query={tasks} />
    </Page>
  );
}
