import { Fragment } from 'react';
import { CopyableId } from '../../../components/copyable-id';
import { RelativeTime } from '../../../components/relative-time';
import { KIND_LABELS, type Integration } from '../api/integrations';
import { accountSummary, IntegrationStatus } from './integration-summary';

const SETTING_LABELS: Record<string, string> = { api_url: 'API URL', approvals_channel: 'Approvals channel', approvers: 'Approvers', from: 'Sender' };

/** A setting's value in words: lists joined, anything else as text. */
function settingText(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(', ');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** What the API says of one integration (never its credentials): whose account, its settings, when it was used. */
export function IntegrationFacts({ integration }: { integration: Integration }) {
  const account = Object.entries(integration.account);
  const settings = Object.entries(integration.settings).filter(([, value]) => value !== undefined);
  return (
    <dl className="facts card">
      <dt>Integration</dt>
      <dd>
        <CopyableId value={integration.integration_id} label="integration id" />
      </dd>
      <dt>Kind</dt>
      <dd>{KIND_LABELS[integration.kind]}</dd>
      <dt>Status</dt>
      <dd>
        <IntegrationStatus integration={integration} />
        {integration.status === 'revoked' && (
          <span className="muted">
            {' '}
            {integration.revoked_reason ?? 'The provider refused the credentials.'} Replace the credentials to use it again.
          </span>
        )}
      </dd>
      {integration.revoked_at && (
        <>
          <dt>Revoked</dt>
          <dd>
            <RelativeTime value={integration.revoked_at} />
          </dd>
        </>
      )}
      <dt>Account</dt>
      <dd>
        {accountSummary(integration, integration.account)}
        {account.length > 0 && (
          <ul className="plain-list muted">
            {account.map(([key, value]) => (
              <li key={key}>
                {key}: <code className="wrap-anywhere">{value}</code>
              </li>
            ))}
          </ul>
        )}
      </dd>
      {settings.map(([key, value]) => (
        <Fragment key={key}>
          <dt>{SETTING_LABELS[key] ?? key}</dt>
          <dd>
            <code className="wrap-anywhere">{settingText(value)}</code>
          </dd>
        </Fragment>
      ))}
      <dt>Last used</dt>
      <dd>
        <RelativeTime value={integration.last_used_at} />
      </dd>
      <dt>Created</dt>
      <dd>
        <RelativeTime value={integration.created_at} />
      </dd>
      <dt>Updated</dt>
      <dd>
        <RelativeTime value={integration.updated_at} />
      </dd>
    </dl>
  );
}
