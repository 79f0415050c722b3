import { Link } from 'react-router';
import { IfAllowed } from '../../components/if-allowed';
import { Page } from '../../components/page';
import { QueryState } from '../../components/query-state';
import { useAgents } from './api/agents';
import { AgentCard } from './components/agent-card';
import { DeployAgentDialog } from './components/deploy-agent-dialog';

/** Agents: one card per deployed agent. */
export function AgentsPage() {
  const agents = useAgents();
  const slugs = agents.data?.map((agent) => agent.agent_slug) ?? [];
  return (
    <Page
      title="Agents"
      intro="Your deployed agents. Run a task from a card; its page shows the work as it happens."
      actions={
        <>
          <Link className="button" to="/sessions">
            Sessions
          </Link>
          <IfAllowed role="admin">
            <DeployAgentDialog deployedSlugs={slugs} />
          </IfAllowed>
        </>
      }
    >
      <QueryState
        query={agents}
        loading="Loading agents…"
        isEmpty={(list) => list.length === 0}
        empty={<p>No agents are deployed yet. An admin can deploy one with “Deploy an agent”.</p>}
      >
        {(list) => (
          <ul className="cards">
            {list.map((agent) => (
              <AgentCard key={agent.agent_id} agent={agent} />
            ))}
          </ul>
        )}
      </QueryState>
    </Page>
  );
}
