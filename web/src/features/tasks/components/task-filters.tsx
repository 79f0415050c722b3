import { TASK_STATUSES } from '../api/tasks';

export interface TaskFilterValues {
  status: string;
  agent: string;
  type: string;
}

/** Filters of the task list, kept in the URL so a filtered list can be shared and reloaded. */
export function TaskFilters({ values, agents, onChange }: { values: TaskFilterValues; agents: string[]; onChange: (values: TaskFilterValues) => void }) {
  return (
    <form className="filters" role="search" aria-label="Filter tasks" onSubmit={(event) => event.preventDefault()}>
      <div className="field">
        <label htmlFor="filter-status">Status</label>
        <select id="filter-status" value={values.status} onChange={(event) => onChange({ ...values, status: event.target.value })}>
          <option value="">Any status</option>
          {TASK_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status.replace(/_/g, ' ')}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-agent">Agent</label>
        <select id="filter-agent" value={values.agent} onChange={(event) => onChange({ ...values, agent: event.target.value })}>
          <option value="">Any agent</option>
          {[...new Set([...agents, values.agent].filter(Boolean))].map((agent) => (
            <option key={agent} value={agent}>
              {agent}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-type">Task type</label>
        <input id="filter-type" value={values.type} placeholder="e.g. ai_readiness.full_audit" aria-describedby="filter-type-hint" onChange={(event) => onChange({ ...values, type: event.target.value })} />
        <span id="filter-type-hint" className="field-hint">
          Narrows the tasks loaded so far.
        </span>
      </div>
    </form>
  );
}
