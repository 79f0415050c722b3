import { useState } from 'react';
import { Dialog } from '../../../components/dialog';
import { QueryState } from '../../../components/query-state';
import { useManifest, type Agent } from '../api/agents';
import { RunTaskForm } from './run-task-form';

/** `Run task` on an agent card: choose a task type, fill in its input, start it. */
export function RunTaskDialog({ agent }: { agent: Agent }) {
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState('');
  const manifest = useManifest(agent.agent_id, open);
  return (
    <>
      <button type="button" className="button primary" onClick={() => setOpen(true)} aria-label={`Run task with ${agent.name}`}>
        Run task
      </button>
      <Dialog open={open} onOpenChange={setOpen} title={`Run a task with ${agent.name}`}>
        <QueryState query={manifest} loading="Loading the agent's task types…">
          {({ task_types }) => {
            const taskType = task_types.find((item) => item.task_type === chosen) ?? task_types[0];
            return (
              <>
                <div className="field">
                  <label htmlFor="task-type">Task type</label>
                  <select id="task-type" value={taskType?.task_type ?? ''} onChange={(event) => setChosen(event.target.value)}>
                    {task_types.map((item) => (
                      <option key={item.task_type} value={item.task_type}>
                        {item.task_type}
                      </option>
                    ))}
                  </select>
                </div>
                {taskType && <RunTaskForm key={taskType.task_type} agentId={agent.agent_id} taskType={taskType} />}
              </>
            );
          }}
        </QueryState>
      </Dialog>
    </>
  );
}
