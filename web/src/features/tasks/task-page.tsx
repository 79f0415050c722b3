import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { JsonView } from '../../components/json-view';
import { Page } from '../../components/page';
import { QueryState } from '../../components/query-state';
import { ProblemMessage } from '../../components/problem-message';
import { FINISHED, useTask, useTaskArtifacts, type Task } from './api/tasks';
import { useTaskTimeline } from './api/task-events';
import { taskKeys } from './api/task-keys';
import { ArtifactView } from './components/artifact-view';
import { CancelTaskButton } from './components/cancel-task-button';
import { TaskFacts } from './components/task-facts';
import { TaskTimeline } from './components/task-timeline';

const STATE_WORDS = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…', stopped: 'Finished' } as const;

function TaskDetail({ task }: { task: Task }) {
  const finished = FINISHED.includes(task.status);
  const timeline = useTaskTimeline(task.task_id, !finished);
  const artifacts = useTaskArtifacts(task.task_id, task.artifacts.length);
  const client = useQueryClient();
  // Once finished, read the stored events once more: nothing the stream had not sent is missed.
  useEffect(() => {
    if (finished) void client.invalidateQueries({ queryKey: taskKeys.events(task.task_id) });
  }, [client, finished, task.task_id]);
  return (
    <>
      <TaskFacts task={task} />
      <h2 id="timeline">Timeline</h2>
      <p className="live" role="status">
        {STATE_WORDS[timeline.state]}
      </p>
      {timeline.streamError !== undefined && <ProblemMessage error={timeline.streamError} />}
      <QueryState query={timeline.events} loading="Loading events…">
        {(events) => <TaskTimeline events={events} />}
      </QueryState>
      <p>
        <Link to={`/events?task_id=${task.task_id}`}>All events of this task</Link>
      </p>
      <h2>Artifacts</h2>
      {task.artifacts.length === 0 ? (
        <p className="empty">{finished ? 'This task produced no artifacts.' : 'No artifacts yet; they appear here when the agent emits them.'}</p>
      ) : (
        <QueryState query={artifacts} loading="Loading artifacts…">
          {(list) => (
            <>
              {list.map((artifact) => (
                <ArtifactView key={artifact.artifact_id} artifact={artifact} />
              ))}
            </>
          )}
        </QueryState>
      )}
      <h2>Input</h2>
      <JsonView value={task.input} label="Task input" />
    </>
  );
}

/** A task: what it is, its live timeline, its artifacts, and `Cancel`. */
export function TaskPage() {
  const { taskId = '' } = useParams();
  const task = useTask(taskId);
  return (
    <Page title={task.data ? `Task ${task.data.task_type}` : 'Task'} actions={task.data && <CancelTaskButton task={task.data} />}>
      <p>
        <Link to="/tasks">All tasks</Link>
      </p>
      <QueryState query={task} loading="Loading the task…">
        {(loaded) => <TaskDetail task={loaded} />}
      </QueryState>
    </Page>
  );
}
