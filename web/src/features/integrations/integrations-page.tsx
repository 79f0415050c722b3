import { useSearchParams } from 'react-router';
import { IfAllowed } from '../../components/if-allowed';
import { LoadMore } from '../../components/load-more';
import { Page } from '../../components/page';
import { QueryState } from '../../components/query-state';
import { INTEGRATION_KINDS, KIND_LABELS, useIntegrations, type IntegrationKind } from './api/integrations';
import { ConnectIntegrationDialog } from './components/connect-integration-dialog';
import { IntegrationsTable } from './components/integrations-table';

function kindParam(value: string | null): IntegrationKind | undefined {
  return INTEGRATION_KINDS.find((kind) => kind === value);
}

/** Integrations: the tenant's GitHub, Slack and mail connections agents act through, by kind; admins connect them. */
export function IntegrationsPage() {
  const [params, setParams] = useSearchParams();
  const kind = kindParam(params.get('kind'));
  const integrations = useIntegrations(kind);
  return (
    <Page
      title="Integrations"
      intro="Your tenant's own GitHub, Slack and mail accounts, which agents use for their tools: reading repositories, asking for approvals in Slack, sending approved mail. Credentials are checked with the provider, stored encrypted and never shown again."
      actions={
        <IfAllowed role="admin">
          <ConnectIntegrationDialog />
        </IfAllowed>
      }
    >
      <form className="filters" role="search" aria-label="Filter integrations" onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label htmlFor="integration-kind">Kind</label>
          <select id="integration-kind" value={kind ?? ''} onChange={(event) => setParams(event.target.value ? { kind: event.target.value } : {}, { replace: true })}>
            <option value="">Any kind</option>
            {INTEGRATION_KINDS.map((item) => (
              <option key={item} value={item}>
                {KIND_LABELS[item]}
              </option>
            ))}
          </select>
        </div>
      </form>
      <QueryState
        query={integrations}
        loading="Loading integrations…"
        isEmpty={() => integrations.items.length === 0}
        empty={
          kind ? (
            <p>No {KIND_LABELS[kind]} integration. Choose another kind.</p>
          ) : (
            <p>
              No integrations yet. An integration lets agents work with your own accounts: read and open issues on GitHub, ask approvers in Slack, send approved mail from your sender. An admin can add
              one with “Connect integration”.
            </p>
          )
        }
      >
        {() => <IntegrationsTable integrations={integrations.items} />}
      </QueryState>
      <LoadMore query={integrations} />
    </Page>
  );
}
