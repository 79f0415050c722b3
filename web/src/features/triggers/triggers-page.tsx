import { useSearchParams } from 'react-router';
import { IfAllowed } from '../../components/if-allowed';
import { LoadMore } from '../../components/load-more';
import { Page } from '../../components/page';
import { QueryState } from '../../components/query-state';
import { TRIGGER_KIND_LABELS, TRIGGER_KINDS, useTriggers } from './api/triggers';
import { NewTriggerDialog } from './components/new-trigger-dialog';
import { TriggersTable } from './components/triggers-table';

/** Triggers: what starts tasks without anyone asking, by kind, a page at a time; operators add them. */
export function TriggersPage() {
  const [params, setParams] = useSearchParams();
  const type = TRIGGER_KINDS.find((kind) => kind === params.get('type'));
  const triggers = useTriggers(type);
  return (
    <Page
      title="Triggers"
      intro="Tasks started on a schedule, whenever an agent emits an artifact of a type, for each mail sent to a trigger's address, or for each matching message in a Slack channel. Every run is logged on the trigger's page."
      actions={
        <IfAllowed role="operator">
          <NewTriggerDialog />
        </IfAllowed>
      }
    >
      <form className="filters" role="search" aria-label="Filter triggers" onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label htmlFor="trigger-kind">Kind</label>
          <select id="trigger-kind" value={type ?? ''} onChange={(event) => setParams(event.target.value ? { type: event.target.value } : {}, { replace: true })}>
            <option value="">Any kind</option>
            {TRIGGER_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {TRIGGER_KIND_LABELS[kind]}
              </option>
            ))}
          </select>
        </div>
      </form>
      <QueryState
        query={triggers}
        loading="Loading triggers…"
        isEmpty={() => triggers.items.length === 0}
        empty={type ? <p>No {type} trigger. Choose another kind.</p> : <p>No triggers yet. An operator can add one with “New trigger”.</p>}
      >
        {() => <TriggersTable triggers={triggers.items} />}
      </QueryState>
      <LoadMore query={triggers} />
    </Page>
  );
}
