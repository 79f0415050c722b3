import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { LoadMore } from '../../components/load-more';
import { Page } from '../../components/page';
import { ProblemMessage } from '../../components/problem-message';
import { QueryState } from '../../components/query-state';
import { AUDIT_TYPES, eventsQuery, filtersFromParams, isAuditFilter, paramsFromFilters, type EventFilterValues } from '../../lib/event-filters';
import { useEventTail, useEvents } from './api/events';
import { EventFilters } from './components/event-filters';
import { EventsTable } from './components/events-table';
import { LiveTailToggle } from './components/live-tail-toggle';

const AUDIT_LOG: EventFilterValues = { type: AUDIT_TYPES.join(','), task_id: '', agent: '', range: 'all', after: '', before: '' };
const EVERYTHING: EventFilterValues = { type: '', task_id: '', agent: '', range: '24h', after: '', before: '' };

/** Events: the tenant's event log with filters, the audit log in one click, and a live tail. */
export function EventsPage() {
  const [params, setParams] = useSearchParams();
  const values = useMemo(() => filtersFromParams(params), [params]);
  // The range's start is fixed when the filters are applied, so paging reads one stable window.
  const query = useMemo(() => eventsQuery(values, new Date()), [values]);
  const events = useEvents(query);
  const [live, setLive] = useState(false);
  const tailBlocked = values.range === 'custom' && values.before ? 'A live tail shows new events; clear “Until” to follow them.' : undefined;
  // Resume right after the last event shown when the whole list is loaded; otherwise start now.
  const resumeAfter = events.isSuccess && !events.hasNextPage ? events.items.at(-1)?.event_id : undefined;
  const tail = useEventTail(query, live && !tailBlocked && events.isSuccess, resumeAfter);
  const shown = [...events.items, ...tail.events.filter((item) => !events.items.some((loaded) => loaded.event_id === item.event_id))];
  const apply = (next: EventFilterValues) => setParams(paramsFromFilters(next), { replace: true });
  const audit = isAuditFilter(values.type);
  const filtered = Boolean(values.type || values.task_id || values.agent);

  return (
    <Page
      title="Events"
      intro="Everything that happened in your tenant, oldest first, newest last."
      actions={
        <>
          <button type="button" className="button" aria-pressed={audit} onClick={() => apply(AUDIT_LOG)}>
            Audit log
          </button>
          <button type="button" className="button ghost" onClick={() => apply(EVERYTHING)}>
            All events
          </button>
        </>
      }
    >
      {audit && (
        <section aria-labelledby="audit-heading">
          <h2 id="audit-heading">Audit log</h2>
          <p className="muted">Who changed API keys, members and settings, and when.</p>
        </section>
      )}
      <EventFilters values={values} onApply={apply} />
      <LiveTailToggle on={live} state={tail.state} disabledReason={tailBlocked} onChange={setLive} />
      {tail.error !== undefined && <ProblemMessage error={tail.error} />}
      <QueryState
        query={events}
        loading="Loading events…"
        isEmpty={() => shown.length === 0}
        empty={filtered || values.range !== 'all' ? <p>No event matches these filters. Widen the time or clear a filter; turn on Live tail to wait for new ones.</p> : <p>No events yet. Run a task from the Agents page and its events appear here.</p>}
      >
        {() => <EventsTable events={shown} caption={audit ? 'Audit log, oldest first' : 'Events, oldest first'} />}
      </QueryState>
      <LoadMore query={events} />
    </Page>
  );
}
