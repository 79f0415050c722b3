import { useState } from 'react';
import { Dialog } from '../../../components/dialog';
import { QueryState } from '../../../components/query-state';
import { ProblemMessage } from '../../../components/problem-message';
import { useCatalog, useDeployAgent } from '../api/agents';

/** `Deploy an agent`: the catalogue, one Deploy button per agent. */
export function DeployAgentDialog({ deployedSlugs }: { deployedSlugs: string[] }) {
  const [open, setOpen] = useState(false);
  const catalog = useCatalog(open);
  const deploy = useDeployAgent();
  return (
    <>
      <button type="button" className="button" onClick={() => setOpen(true)}>
        Deploy an agent
      </button>
      <Dialog open={open} onOpenChange={setOpen} title="Deploy an agent" description="Deployed agents can run tasks for your tenant.">
        {deploy.error && <ProblemMessage error={deploy.error} />}
        <QueryState query={catalog} loading="Loading the catalogue…">
          {(agents) => (
            <ul className="cards">
              {agents.map((agent) => {
                const deployed = deployedSlugs.includes(agent.slug);
                return (
                  <li key={agent.slug} className="card">
                    <h3>{agent.name}</h3>
                    <p>{agent.description}</p>
                    <p className="muted">Task types: {agent.task_types.map((type) => type.task_type).join(', ')}</p>
                    <button type="button" className="button primary" disabled={deploy.isPending} onClick={() => void deploy.mutateAsync({ agent_slug: agent.slug }).then(() => setOpen(false))} aria-label={`Deploy ${agent.name}`}>
                      {deployed ? 'Deploy again' : 'Deploy'}
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </QueryState>
      </Dialog>
    </>
  );
}
