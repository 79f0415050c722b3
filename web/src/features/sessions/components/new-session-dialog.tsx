import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { fieldErrors } from '../../../api/problem-error';
import { Dialog } from '../../../components/dialog';
import { ProblemMessage } from '../../../components/problem-message';
import { useAgents } from '../../agents/api/agents';
import { useSessionMutations } from '../api/sessions';

/** `New session`: a deployed agent and an optional title; the new session opens. */
export function NewSessionDialog({ agent: preset }: { agent?: string }) {
  const [open, setOpen] = useState(false);
  const [agent, setAgent] = useState(preset ?? '');
  const [title, setTitle] = useState('');
  const agents = useAgents();
  const { create } = useSessionMutations();
  const navigate = useNavigate();
  const deployed = agents.data ?? [];
  const chosen = deployed.some((item) => item.agent_slug === agent) ? agent : (deployed[0]?.agent_slug ?? '');
  const errors = fieldErrors(create.error, 'body');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    create.mutate({ agent: chosen, ...(title.trim() ? { title: title.trim() } : {}) }, { onSuccess: (session) => (setOpen(false), navigate(`/sessions/${session.session_id}`)) });
  };
  return (
    <>
      <button type="button" className="button primary" onClick={() => (create.reset(), setTitle(''), setOpen(true))}>
        New session
      </button>
      <Dialog open={open} onOpenChange={setOpen} title="New session" description="A conversation with one agent: tasks started in it see its earlier messages and artifacts.">
        <form onSubmit={submit} noValidate>
          {create.error && !errors.agent && !errors.title && <ProblemMessage error={create.error} />}
          <div className="field">
            <label htmlFor="session-agent">Agent</label>
            <select id="session-agent" value={chosen} aria-describedby="session-agent-error" aria-invalid={errors.agent ? true : undefined} onChange={(event) => setAgent(event.target.value)}>
              {deployed.map((item) => (
                <option key={item.agent_id} value={item.agent_slug}>
                  {item.name} ({item.agent_slug})
                </option>
              ))}
            </select>
            <span id="session-agent-error" className="field-error">
              {agents.isSuccess && deployed.length === 0 ? 'No agent is deployed yet: deploy one on the Agents page first.' : errors.agent}
            </span>
          </div>
          <div className="field">
            <label htmlFor="session-title">Title (optional)</label>
            <input id="session-title" maxLength={200} value={title} aria-describedby="session-title-error" aria-invalid={errors.title ? true : undefined} onChange={(event) => setTitle(event.target.value)} />
            <span id="session-title-error" className="field-error">
              {errors.title}
            </span>
          </div>
          <div className="actions">
            <button type="submit" className="button primary" disabled={create.isPending || !chosen}>
              {create.isPending ? 'Starting…' : 'Start session'}
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
