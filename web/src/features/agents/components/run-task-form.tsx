import { useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { SchemaFields } from '../../../components/schema-form/schema-form';
import { FieldErrorCount } from '../../../components/field';
import { ProblemMessage } from '../../../components/problem-message';
import { fieldErrors } from '../../../api/problem-error';
import { fieldsOf } from '../../../lib/schema-form/fields';
import { buildInput, valuesFrom, type FormErrors, type FormValues } from '../../../lib/schema-form/values';
import { useCreateTask } from '../../tasks/api/create-task';
import type { TaskTypeManifest } from '../api/agents';

/** The input form of one task type, generated from its JSON Schema; sends the task and opens its page. */
export function RunTaskForm({ agentId, taskType }: { agentId: string; taskType: TaskTypeManifest }) {
  const schema = taskType.input_schema ?? {};
  const fields = useMemo(() => fieldsOf(schema), [schema]);
  const example = Array.isArray(schema.examples) ? (schema.examples[0] as Record<string, unknown> | undefined) : undefined;
  const [values, setValues] = useState<FormValues>(() => valuesFrom(fields));
  const [errors, setErrors] = useState<FormErrors>({});
  const [priority, setPriority] = useState<'low' | 'normal' | 'high'>('normal');
  // One key per form: a double submit or a retry after a network failure creates one task.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const create = useCreateTask();
  const navigate = useNavigate();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const built = buildInput(fields, values);
    setErrors(built.errors);
    if (Object.keys(built.errors).length) return;
    try {
      const task = await create.mutateAsync({ task: { agent_id: agentId, task_type: taskType.task_type, input: built.input, priority }, idempotencyKey });
      navigate(`/tasks/${task.task_id}`);
    } catch (failure) {
      setErrors(fieldErrors(failure, 'body.input'));
    }
  };
  const errorCount = Object.keys(errors).length;
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={`Input for ${taskType.task_type}`}>
      {taskType.description && <p className="muted">{taskType.description}</p>}
      {example && (
        <p>
          <button type="button" className="button small" onClick={() => (setValues(valuesFrom(fields, example)), setErrors({}))}>
            Fill with the example
          </button>
        </p>
      )}
      <SchemaFields fields={fields} values={values} errors={errors} onChange={(path, value) => setValues((current) => ({ ...current, [path]: value }))} />
      <div className="field">
        <label htmlFor="task-priority">Priority</label>
        <select id="task-priority" value={priority} onChange={(event) => setPriority(event.target.value as typeof priority)}>
          <option value="normal">normal</option>
          <option value="high">high</option>
          <option value="low">low</option>
        </select>
      </div>
      <FieldErrorCount count={errorCount} />
      {create.error && !errorCount && <ProblemMessage error={create.error} />}
      <div className="actions">
        <button type="submit" className="button primary" disabled={create.isPending}>
          {create.isPending ? 'Starting…' : 'Run task'}
        </button>
      </div>
    </form>
  );
}
