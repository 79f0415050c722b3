import { Link } from 'react-router';
import { CopyableId } from '../../../components/copyable-id';
import { IfAllowed } from '../../../components/if-allowed';
import { RelativeTime } from '../../../components/relative-time';
import { StatusBadge } from '../../../components/status-badge';
import type { Agent } from '../api/agents';
import { AgentConfigDialog } from './agent-config-dialog';
import { RunTaskDialog } from './run-task-dialog';

/** One deployed agent: what it is, its tasks, `Run task` for those allowed to run tasks. */
export function AgentCard({ agent }: { agent: Agent }) {
  const headingId = `agent-${agent.agent_id}`;
  return (
    <li className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{agent.name}</h2>
      <dl className="facts">
        <dt>Agent</dt>
        <dd>{agent.agent_slug}</dd>
        <dt>Runs on</dt>
        <dd>{agent.kind === 'custom' ? 'Your workers (a custom agent)' : 'Gatehouse (built in)'}</dd>
        <dt>Status</dt>
        <dd>
          <StatusBadge status={agent.status} />
        </dd>
        <dt>Identifier</dt>
        <dd>
          <CopyableId value={agent.agent_id} label="agent id" />
        </dd>
        <dt>Deployed</dt>
        <dd>
          <RelativeTime value={agent.created_at} />
        </dd>
      </dl>
      <div className="actions card-actions">
        <IfAllowed role="operator">
          <RunTaskDialog agent={agent} />
        </IfAllowed>
        <AgentConfigDialog agent={agent} />
        <Link to={`/tasks?agent=${encodeURIComponent(agent.agent_slug)}`}>Tasks of this agent</Link>
        {agent.kind !== 'custom' && <Link to={`/sessions?agent=${encodeURIComponent(agent.agent_slug)}`}>Sessions of this agent</Link>}
      </div>
    </li>
  );
}
