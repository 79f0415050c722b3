import { ProblemMessage } from '../../../components/problem-message';
import type { Integration, IntegrationTest } from '../api/integrations';
import { accountSummary } from './integration-summary';

/** What `Test connection` answered: whose account the credentials reach, or why they do not (and whether that revoked them). */
export function ConnectionTestOutcome({ integration, answer, error }: { integration: Integration; answer: IntegrationTest | undefined; error: unknown }) {
  if (error) return <ProblemMessage error={error} />;
  if (!answer) return null;
  return (
    <div className="card fire-outcome" role="status" aria-label="Connection test">
      {answer.ok ? (
        <p>
          <span className="ok-text">Connected</span> as {accountSummary(integration, answer.account ?? {})}.
        </p>
      ) : (
        <>
          <p>
            <span className="bad-text">Not connected</span>
            {answer.status === 'revoked' ? (
              <>
                : the integration is <span className="badge badge-bad">revoked</span>. Replace its credentials to use it again.
              </>
            ) : (
              '.'
            )}
          </p>
          {answer.error && (
            <p className="muted">
              {answer.error.message} <code>{answer.error.code}</code>
            </p>
          )}
        </>
      )}
    </div>
  );
}
