import { useState, type FormEvent } from 'react';
import { fieldErrors } from '../../../api/problem-error';
import { ProblemMessage } from '../../../components/problem-message';
import { useAgents, useManifest } from '../../agents/api/agents';
import { useSessionMutations, type Session } from '../api/sessions';

/**
 * Writes to the session: a message, optionally starting a task of the session's agent (task type
 * and input as JSON). Disabled, and says why, once the session is closed.
 */
export function Composer({ session }: { session: Session }) {
  const closed = session.status === 'closed';
  const [content, setContent] = useState('');
  const [taskType, setTaskType] = useState('');
  const [input, setInput] = useState('{}');
  const [inputError, setInputError] = useState('');
  const agents = useAgents();
  const agent = agents.data?.find((item) => item.agent_slug === session.agent);
  const manifest = useManifest(agent?.agent_id ?? '', Boolean(agent) && !closed);
  const { send } = useSessionMutations();
  const errors = fieldErrors(send.error, 'body');
  const inputApiError = Object.entries(errors).find(([path]) => path === 'input' || path.startsWith('input.'));
  const taskTypeError = errors.task_type;
  const placed = Boolean(errors.content || inputApiError || taskTypeError);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    let parsed: Record<string, unknown> | undefined;
    if (taskType) {
      try {
        const value: unknown = JSON.parse(input.trim() || '{}');
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return setInputError('Enter a JSON object, e.g. {"scope": "quick"}.');
        parsed = value as Record<string, unknown>;
      } catch (failure) {
        return setInputError(`Not valid JSON: ${failure instanceof Error ? failure.message : String(failure)}`);
      }
    }
    setInputError('');
    if (!content.trim()) return;
    const sent = { content, taskType, input };
    // Cleared only where they still hold what was sent: the person may already be writing the next message.
    const clearIfSent = () => {
      setContent((now) => (now === sent.content ? '' : now));
      setTaskType((now) => (now === sent.taskType ? '' : now));
      setInput((now) => (now === sent.input ? '{}' : now));
    };
    send.mutate({ sessionId: session.session_id, content: content.trim(), ...(taskType ? { task_type: taskType, input: parsed } : {}) }, { onSuccess: clearIfSent });
  };
  const shownInputError = inputError || (inputApiError ? `${inputApiError[0]}: ${inputApiError[1]}` : '');
  return (
    <form className="card composer" onSubmit={submit} noValidate aria-labelledby="composer-heading">
      <h2 id="composer-heading">Write to the agent</h2>
      {closed && (
        <p className="muted" id="composer-closed">
          This session is closed: no more messages can be sent.
        </p>
      )}
      {send.error && !placed && <ProblemMessage error={send.error} />}
      <fieldset disabled={closed} className="plain-fieldset">
        <div className="field">
          <label htmlFor="composer-message">Message</label>
          <textarea id="composer-message" rows={3} required maxLength={4000} value={content} aria-describedby={closed ? 'composer-closed composer-message-error' : 'composer-message-error'} aria-invalid={errors.content ? true : undefined} onChange={(event) => setContent(event.target.value)} />
          <span id="composer-message-error" className="field-error">
            {errors.content}
          </span>
        </div>
        <div className="field">
          <label htmlFor="composer-task-type">Task type (optional)</label>
          <select id="composer-task-type" value={taskType} aria-describedby="composer-task-type-hint composer-task-type-error" aria-invalid={taskTypeError ? true : undefined} onChange={(event) => setTaskType(event.target.value)}>
            <option value="">None: just a message</option>
            {(manifest.data?.task_types ?? []).map((item) => (
              <option key={item.task_type} value={item.task_type}>
                {item.task_type}
              </option>
            ))}
          </select>
          <span id="composer-task-type-hint" className="field-hint">
            With a task type the message starts a task of {session.agent} in this session.
          </span>
          <span id="composer-task-type-error" className="field-error">
            {taskTypeError}
          </span>
        </div>
        {taskType && (
          <div className="field">
            <label htmlFor="composer-input">Input (JSON)</label>
            <textarea id="composer-input" rows={3} spellCheck={false} value={input} aria-describedby="composer-input-error" aria-invalid={shownInputError ? true : undefined} onChange={(event) => setInput(event.target.value)} />
            <span id="composer-input-error" className="field-error">
              {shownInputError}
            </span>
          </div>
        )}
        <div className="actions">
          <button type="submit" className="button primary" disabled={closed || send.isPending || !content.trim()}>
            {send.isPending ? 'Sending…' : 'Send'}
          </button>
        </div>
      </fieldset>
    </form>
  );
}
