import { useEffect, useState, type FormEvent } from 'react';
import { ALL_EVENT_TYPES, AUDIT_TYPES, RANGES, type EventFilterValues, type RangeValue } from '../../../lib/event-filters';

/** Groups offered in the type filter besides single types; the audit log is one of them. */
const GROUPS = [
  { label: 'Audit log (keys, members, settings)', value: AUDIT_TYPES.join(',') },
  { label: 'All task events', value: ALL_EVENT_TYPES.filter((type) => type.startsWith('task.')).join(',') },
  { label: 'All approval events', value: ALL_EVENT_TYPES.filter((type) => type.startsWith('approval.')).join(',') },
  { label: 'All scan events', value: ALL_EVENT_TYPES.filter((type) => type.startsWith('scan.')).join(',') },
];

/**
 * The Events page's filters: type (single types or groups), task id, agent, and a time range.
 * Changes apply with `Show events`, so typing an id does not fetch at each key.
 */
export function EventFilters({ values, onApply }: { values: EventFilterValues; onApply: (values: EventFilterValues) => void }) {
  const [draft, setDraft] = useState(values);
  useEffect(() => setDraft(values), [values]);
  const set = (patch: Partial<EventFilterValues>) => setDraft((current) => ({ ...current, ...patch }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  const typeOptions = GROUPS.some((group) => group.value === draft.type) || !draft.type || ALL_EVENT_TYPES.includes(draft.type) ? [] : [{ label: draft.type, value: draft.type }];
  return (
    <form className="filters" role="search" aria-label="Filter events" onSubmit={submit}>
      <div className="field">
        <label htmlFor="events-type">Type</label>
        <select id="events-type" value={draft.type} onChange={(event) => set({ type: event.target.value })}>
          <option value="">Any type</option>
          <optgroup label="Groups">
            {[...GROUPS, ...typeOptions].map((group) => (
              <option key={group.value} value={group.value}>
                {group.label}
              </option>
            ))}
          </optgroup>
          <optgroup label="One type">
            {ALL_EVENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </optgroup>
        </select>
      </div>
      <div className="field">
        <label htmlFor="events-task">Task id</label>
        <input id="events-task" value={draft.task_id} placeholder="task_…" autoComplete="off" spellCheck={false} onChange={(event) => set({ task_id: event.target.value })} />
      </div>
      <div className="field">
        <label htmlFor="events-agent">Agent</label>
        <input id="events-agent" value={draft.agent} placeholder="e.g. ai-readiness" autoComplete="off" spellCheck={false} onChange={(event) => set({ agent: event.target.value })} />
      </div>
      <div className="field">
        <label htmlFor="events-range">Time</label>
        <select id="events-range" value={draft.range} onChange={(event) => set({ range: event.target.value as RangeValue })}>
          {RANGES.map((range) => (
            <option key={range.value} value={range.value}>
              {range.label}
            </option>
          ))}
        </select>
      </div>
      {draft.range === 'custom' && (
        <>
          <div className="field">
            <label htmlFor="events-after">From</label>
            <input id="events-after" type="datetime-local" value={draft.after} onChange={(event) => set({ after: event.target.value })} />
          </div>
          <div className="field">
            <label htmlFor="events-before">Until</label>
            <input id="events-before" type="datetime-local" value={draft.before} onChange={(event) => set({ before: event.target.value })} />
          </div>
        </>
      )}
      <div className="field filter-submit">
        <button type="submit" className="button primary">
          Show events
        </button>
      </div>
    </form>
  );
}
