import { QueryState } from '../../../components/query-state';
import { useApiBaseUrl } from '../api/api-base-url';
import { CopyField } from './copy-field';

/** Where the Slack app sends button clicks and channel events: this integration's own URLs on the API, to paste into the app's settings. */
export function SlackSetup({ integrationId }: { integrationId: string }) {
  const base = useApiBaseUrl();
  const path = (what: string) => `/integrations/${encodeURIComponent(integrationId)}/slack/${what}`;
  return (
    <section aria-labelledby="slack-setup-heading">
      <h2 id="slack-setup-heading">Slack app setup</h2>
      <p>
        In the Slack app's settings (api.slack.com/apps), paste these two URLs. Slack signs every request with the app's signing secret, which Gatehouse checks.
      </p>
      <QueryState query={base} loading="Loading the API's address…">
        {(url) => (
          <div className="card">
            <CopyField label="Interactivity request URL" value={`${url}${path('interactions')}`} hint="Interactivity & Shortcuts → Request URL: approvers' button clicks and forms." />
            <CopyField label="Event subscriptions request URL" value={`${url}${path('events')}`} hint="Event Subscriptions → Request URL: messages in the channels the bot is in." />
          </div>
        )}
      </QueryState>
    </section>
  );
}
