import { Link } from 'react-router';
import { RelativeTime } from '../../../components/relative-time';
import { KIND_LABELS, type Integration } from '../api/integrations';
import { accountSummary, IntegrationStatus } from './integration-summary';

/** The tenant's integrations: which provider, whose account, whether agents can use them. */
export function IntegrationsTable({ integrations }: { integrations: Integration[] }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Integrations, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Kind</th>
            <th scope="col">Account</th>
            <th scope="col">Status</th>
            <th scope="col">Last used</th>
          </tr>
        </thead>
        <tbody>
          {integrations.map((integration) => (
            <tr key={integration.integration_id}>
              <td className="wrap">
                <Link to={`/integrations/${integration.integration_id}`}>{integration.name}</Link>
              </td>
              <td>{KIND_LABELS[integration.kind]}</td>
              <td className="wrap">{accountSummary(integration, integration.account)}</td>
              <td className="wrap">
                <IntegrationStatus integration={integration} />
                {integration.revoked_reason && <span className="muted"> {integration.revoked_reason}</span>}
              </td>
              <td>
                <RelativeTime value={integration.last_used_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
