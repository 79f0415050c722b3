import { useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/dialog';
import { ProblemMessage } from '../../../components/problem-message';
import { fieldErrors } from '../../../api/problem-error';
import { usePermission } from '../../../lib/permissions';
import { useUpdateAgentConfig, type Agent } from '../api/agents';

/** An agent's configuration; admins may change it, others read it. */
export function AgentConfigDialog({ agent }: { agent: Agent }) {
  const [open, setOpen] = useState(false);
  const [hours, setHours] = useState(String(agent.config.approval_ttl_hours));
  const [error, setError] = useState('');
  const update = useUpdateAgentConfig(agent.agent_id);
  const permission = usePermission('admin');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = Number(hours);
    if (!Number.isInteger(value) || value < 1) return setError('Enter a whole number of hours, 1 or more.');
    setError('');
    try {
      await update.mutateAsync({ approval_ttl_hours: value });
      setOpen(false);
    } catch (failure) {
      setError(fieldErrors(failure, 'body').approval_ttl_hours ?? '');
    }
  };
  return (
    <>
      <button type="button" className="button" onClick={() => (setHours(String(agent.config.approval_ttl_hours)), setOpen(true))} aria-label={`Configuration of ${agent.name}`}>
        Configuration
      </button>
      <Dialog open={open} onOpenChange={setOpen} title={`${agent.name}: configuration`}>
        <form onSubmit={(event) => void submit(event)} noValidate>
          <div className="field">
            <label htmlFor="approval-ttl">Approval time limit (hours)</label>
            <input id="approval-ttl" type="number" min={1} step={1} value={hours} disabled={!permission.allowed} aria-describedby="approval-ttl-hint approval-ttl-error" aria-invalid={error ? true : undefined} onChange={(event) => setHours(event.target.value)} />
            <span id="approval-ttl-hint" className="field-hint">
              An approval not decided within this time is denied as expired.
            </span>
            <span id="approval-ttl-error" className="field-error">
              {error}
            </span>
          </div>
          {update.error && !error && <ProblemMessage error={update.error} />}
          <div className="actions">
            {permission.allowed ? (
              <button type="submit" className="button primary" disabled={update.isPending}>
                Save
              </button>
            ) : (
              <p className="muted">{permission.reason}</p>
            )}
          </div>
        </form>
      </Dialog>
    </>
  );
}
