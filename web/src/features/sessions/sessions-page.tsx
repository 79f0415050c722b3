import { useSearchParams } from 'react-router';
import { IfAllowed } from '../../components/if-allowed';
import { LoadMore } from '../../components/load-more';
import { Page } from '../../components/page';
import { QueryState } from '../../components/query-state';
import { useAgents } from '../agents/api/agents';
import { useSessions, type SessionStatus } from './api/sessions';
import { NewSessionDialog } from './components/new-session-dialog';
import { SessionsTable } from './components/sessions-table';

/** Sessions: conversations with agents, newest first, by status and agent; operators start them. */
export function SessionsPage() {
  const [params, setParams] = useSearchParams();
  const status = params.get('status') === 'open' || params.get('status') === 'closed' ? (params.get('status') as SessionStatus) : undefined;
  const agent = params.get('agent') ?? '';
  const sessions = useSessions({ status, agent: agent || undefined });
  const agents = useAgents();
  const update = (next: { status?: string; agent?: string }) => setParams(Object.fromEntries(Object.entries({ status: status ?? '', agent, ...next }).filter(([, value]) => value)), { replace: true });
  return (
    <Page
      title="Sessions"
      intro="Conversations with an agent: each task started in a session sees the messages and artifacts before it."
      actions={
        <IfAllowed role="operator">
          <NewSessionDialog agent={agent || undefined} />
        </IfAllowed>
      }
    >
      <form className="filters" role="search" aria-label="Filter sessions" onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label htmlFor="session-status-filter">Status</label>
          <select id="session-status-filter" value={status ?? ''} onChange={(event) => update({ status: event.target.value })}>
            <option value="">Open and closed</option>
            <option value="open">Open</option>
            <option value="closed">Closed</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="session-agent-filter">Agent</label>
          <select id="session-agent-filter" value={agent} onChange={(event) => update({ agent: event.target.value })}>
            <option value="">Any agent</option>
            {[...new Set([...(agents.data?.map((item) => item.agent_slug) ?? []), agent].filter(Boolean))].map((slug) => (
              <option key={slug} value={slug}>
                {slug}
              </option>
            ))}
          </select>
        </div>
      </form>
      <QueryState
        query={sessions}
        loading="Loading sessions…"
        isEmpty={() => sessions.items.length === 0}
        empty={status || agent ? <p>No session matches these filters. Clear a filter to see more.</p> : <p>No sessions yet. An operator can start one with “New session”.</p>}
      >
        {() => <SessionsTable sessions={sessions.items} />}
      </QueryState>
      <LoadMore query={sessions} />
    </Page>
  );
}
