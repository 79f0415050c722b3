import { Link, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyableId } from '../../components/copyable-id';
import { IfAllowed } from '../../components/if-allowed';
import { Page } from '../../components/page';
import { QueryState } from '../../components/query-state';
import { RelativeTime } from '../../components/relative-time';
import { StatusBadge } from '../../components/status-badge';
import { usePermission } from '../../lib/permissions';
import { TasksTable } from '../tasks/components/tasks-table';
import { awaitingAgent, useSession, useSessionMutations, useSessionTasks, useTranscript, type Session } from './api/sessions';
import { Composer } from './components/composer';
import { Transcript } from './components/transcript';

function SessionFacts({ session }: { session: Session }) {
  return (
    <dl className="facts card">
      <dt>Session</dt>
      <dd>
        <CopyableId value={session.session_id} label="session id" />
      </dd>
      <dt>Agent</dt>
      <dd>
        <Link to={`/sessions?agent=${encodeURIComponent(session.agent)}`}>{session.agent}</Link>
      </dd>
      <dt>Status</dt>
      <dd>
        <StatusBadge status={session.status} /> {session.close_reason && <span className="muted">{session.close_reason}</span>}
      </dd>
      <dt>Last activity</dt>
      <dd>
        <RelativeTime value={session.last_activity_at} />
      </dd>
      <dt>Created</dt>
      <dd>
        <RelativeTime value={session.created_at} />
      </dd>
      {session.closed_at && (
        <>
          <dt>Closed</dt>
          <dd>
            <RelativeTime value={session.closed_at} />
          </dd>
        </>
      )}
      <dt>Closes when idle for</dt>
      <dd>{session.idle_timeout_minutes} minutes</dd>
    </dl>
  );
}

function SessionDetail({ session }: { session: Session }) {
  const tasks = useSessionTasks(session.session_id);
  const transcript = useTranscript(session.session_id, tasks.data);
  const canWrite = usePermission('operator').allowed;
  const waiting = tasks.data && transcript.data ? awaitingAgent(tasks.data, transcript.data) : false;
  return (
    <>
      <SessionFacts session={session} />
      <h2>Transcript</h2>
      <p className="live" role="status">
        {waiting ? 'A task is running: the agent’s reply appears here when it ends.' : ''}
      </p>
      <QueryState query={transcript} loading="Loading the transcript…">
        {(messages) => <Transcript messages={messages} agent={session.agent} tasks={tasks.data ?? []} />}
      </QueryState>
      {canWrite ? <Composer session={session} /> : <p className="muted">Your role can read this session; sending messages needs the operator role.</p>}
      <h2>Tasks of this session</h2>
      <QueryState query={tasks} loading="Loading the session's tasks…" isEmpty={(list) => list.length === 0} empty={<p>No task started in this session yet. Choose a task type when sending a message to start one.</p>}>
        {(list) => <TasksTable tasks={list} caption="Tasks of this session, newest first" />}
      </QueryState>
    </>
  );
}

/** One session: its transcript (refreshed while its tasks run), the composer, `Close session`, its tasks. */
export function SessionPage() {
  const { sessionId = '' } = useParams();
  const session = useSession(sessionId);
  const { close } = useSessionMutations();
  return (
    <Page
      title={session.data ? session.data.title || 'Untitled session' : 'Session'}
      intro={<Link to="/sessions">All sessions</Link>}
      actions={
        session.data?.status === 'open' && (
          <IfAllowed role="operator">
            <ConfirmDialog
              trigger={
                <button type="button" className="button">
                  Close session
                </button>
              }
              title="Close this session?"
              description="No more messages can be sent. Tasks already started run to their end, and the agent still reports on them here."
              confirmLabel="Close session"
              onConfirm={() => close.mutateAsync(sessionId)}
            />
          </IfAllowed>
        )
      }
    >
      <QueryState query={session} loading="Loading the session…">
        {(item) => <SessionDetail session={item} />}
      </QueryState>
    </Page>
  );
}
