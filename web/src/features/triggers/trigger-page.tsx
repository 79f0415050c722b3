import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { IfAllowed } from '../../components/if-allowed';
import { LoadMore } from '../../components/load-more';
import { Page } from '../../components/page';
import { ProblemMessage } from '../../components/problem-message';
import { QueryState } from '../../components/query-state';
import { StatusBadge } from '../../components/status-badge';
import { useTasks } from '../tasks/api/tasks';
import { TasksTable } from '../tasks/components/tasks-table';
import { isFireable, scheduleOf, useTrigger, useTriggerMutations, type Trigger } from './api/triggers';
import { NextRuns } from './components/next-runs';
import { RunsSection } from './components/runs-section';
import { TriggerFacts } from './components/trigger-facts';

type Mutations = ReturnType<typeof useTriggerMutations>;

/** `Pause`/`Resume`, `Fire now` (schedules and events: mail and chat triggers run for their mail and messages only) and `Delete`, for operators. */
function TriggerActions({ trigger, mutations }: { trigger: Trigger; mutations: Mutations }) {
  const { setEnabled, fire, remove } = mutations;
  const navigate = useNavigate();
  return (
    <IfAllowed role="operator">
      <button type="button" className="button" disabled={setEnabled.isPending} onClick={() => (fire.reset(), setEnabled.mutate({ triggerId: trigger.trigger_id, enabled: !trigger.enabled }))}>
        {trigger.enabled ? 'Pause' : 'Resume'}
      </button>
      {isFireable(trigger) && (
        <button type="button" className="button primary" disabled={fire.isPending} onClick={() => (setEnabled.reset(), fire.mutate(trigger.trigger_id))}>
          {fire.isPending ? 'Firing…' : 'Fire now'}
        </button>
      )}
      <ConfirmDialog
        trigger={
          <button type="button" className="button danger">
            Delete
          </button>
        }
        title="Delete this trigger?"
        description={`“${trigger.name}” starts no more tasks and its runs log is deleted; the tasks it started stay. This cannot be undone.`}
        confirmLabel="Delete trigger"
        danger
        onConfirm={async () => {
          await remove.mutateAsync(trigger.trigger_id);
          navigate('/triggers', { replace: true });
        }}
      />
    </IfAllowed>
  );
}

/** What `Fire now` answered (the run and its task), or what a pause, resume or fire failed with. */
function ActionOutcome({ mutations }: { mutations: Mutations }) {
  const { setEnabled, fire } = mutations;
  const failure = fire.error ?? setEnabled.error;
  if (failure) return <ProblemMessage error={failure} />;
  if (!fire.data) return null;
  const run = fire.data;
  return (
    <div className="card fire-outcome" role="status" aria-label="Run started by Fire now">
      <p>
        Fired: <StatusBadge status={run.outcome} /> {run.task_id && <Link to={`/tasks/${run.task_id}`}>Open task {run.task_id}</Link>}
        {run.reason && <span className="muted"> {run.reason}</span>}
      </p>
    </div>
  );
}

/** The tasks this trigger started (GET /tasks?trigger_id=). */
function TriggerTasks({ triggerId }: { triggerId: string }) {
  const tasks = useTasks({ trigger_id: triggerId });
  return (
    <section aria-labelledby="trigger-tasks-heading">
      <h2 id="trigger-tasks-heading">Tasks it started</h2>
      <QueryState query={tasks} loading="Loading its tasks…" isEmpty={() => tasks.items.length === 0} empty={<p>This trigger has started no task yet.</p>}>
        {() => <TasksTable tasks={tasks.items} caption="Tasks this trigger started, newest first" />}
      </QueryState>
      <LoadMore query={tasks} />
      <p>
        <Link to={`/tasks?trigger_id=${encodeURIComponent(triggerId)}`}>Its tasks on the Tasks page</Link>
      </p>
    </section>
  );
}

/** One trigger: its settings, next runs, `Pause`/`Resume`, `Fire now`, `Delete`, its runs log and its tasks. */
export function TriggerPage() {
  const { triggerId = '' } = useParams();
  const trigger = useTrigger(triggerId);
  const mutations = useTriggerMutations();
  return (
    <Page title={trigger.data ? `Trigger ${trigger.data.name}` : 'Trigger'} intro={<Link to="/triggers">All triggers</Link>} actions={trigger.data && <TriggerActions trigger={trigger.data} mutations={mutations} />}>
      <QueryState query={trigger} loading="Loading the trigger…">
        {(item) => {
          const schedule = scheduleOf(item);
          return (
            <>
              <ActionOutcome mutations={mutations} />
              <TriggerFacts trigger={item} />
              {schedule && <NextRuns trigger={item} schedule={schedule} />}
              <RunsSection trigger={item} />
              <TriggerTasks triggerId={item.trigger_id} />
            </>
          );
        }}
      </QueryState>
    </Page>
  );
}
