import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { IfAllowed } from '../../components/if-allowed';
import { Page } from '../../components/page';
import { QueryState } from '../../components/query-state';
import { useIntegration, useIntegrationMutations, type Integration } from './api/integrations';
import { ConnectionTestOutcome } from './components/connection-test-outcome';
import { IntegrationFacts } from './components/integration-facts';
import { ReplaceCredentialsDialog } from './components/replace-credentials-dialog';
import { SlackSetup } from './components/slack-setup';

type Mutations = ReturnType<typeof useIntegrationMutations>;

/** `Test connection`, `Replace credentials` and `Delete`, for admins. */
function IntegrationActions({ integration, mutations }: { integration: Integration; mutations: Mutations }) {
  const { test, remove } = mutations;
  const navigate = useNavigate();
  return (
    <IfAllowed role="admin">
      <button type="button" className="button primary" disabled={test.isPending} onClick={() => test.mutate(integration.integration_id)}>
        {test.isPending ? 'Testing…' : 'Test connection'}
      </button>
      <ReplaceCredentialsDialog integration={integration} />
      <ConfirmDialog
        trigger={
          <button type="button" className="button danger">
            Delete
          </button>
        }
        title="Delete this integration?"
        description={`“${integration.name}” is deleted and its credentials destroyed; agents bound to it can no longer use its tools. This cannot be undone.`}
        confirmLabel="Delete integration"
        danger
        onConfirm={async () => {
          await remove.mutateAsync(integration.integration_id);
          navigate('/integrations', { replace: true });
        }}
      />
    </IfAllowed>
  );
}

/** One integration: whose account, its settings, for Slack the app's setup URLs; `Test connection`, `Replace credentials`, `Delete`. */
export function IntegrationPage() {
  const { integrationId = '' } = useParams();
  const integration = useIntegration(integrationId);
  const mutations = useIntegrationMutations();
  return (
    <Page
      title={integration.data ? `Integration ${integration.data.name}` : 'Integration'}
      intro={<Link to="/integrations">All integrations</Link>}
      actions={integration.data && <IntegrationActions integration={integration.data} mutations={mutations} />}
    >
      <QueryState query={integration} loading="Loading the integration…">
        {(item) => (
          <>
            <ConnectionTestOutcome integration={item} answer={mutations.test.data} error={mutations.test.error} />
            <IntegrationFacts integration={item} />
            {item.kind === 'slack' && <SlackSetup integrationId={item.integration_id} />}
          </>
        )}
      </QueryState>
    </Page>
  );
}
