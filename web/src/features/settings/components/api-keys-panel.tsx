import { ConfirmDialog } from '../../../components/confirm-dialog';
import { IfAllowed } from '../../../components/if-allowed';
import { LoadMore } from '../../../components/load-more';
import { Principal } from '../../../components/principal';
import { QueryState } from '../../../components/query-state';
import { RelativeTime } from '../../../components/relative-time';
import { useApiKeys, useRevokeKey, type ApiKey } from '../api/api-keys';
import { AdminOnly } from './admin-only';
import { GenerateKeyDialog } from './generate-key-dialog';

function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: () => Promise<unknown> }) {
  const name = apiKey.name ?? apiKey.display_prefix;
  return (
    <tr>
      <th scope="row">{apiKey.name ?? <span className="muted">No name</span>}</th>
      <td>
        <code>{apiKey.display_prefix}…</code>
      </td>
      <td>
        {apiKey.role}
        {apiKey.capped ? <span className="muted"> (capped from {apiKey.granted_role}: its person was demoted)</span> : null}
        {apiKey.suspended ? <span className="muted"> (suspended: its person is no longer allowed it)</span> : null}
      </td>
      <td>
        <RelativeTime value={apiKey.created_at} />
      </td>
      <td>{apiKey.last_used_at ? <RelativeTime value={apiKey.last_used_at} /> : <span className="muted">Never</span>}</td>
      <td>
        <Principal principal={apiKey.created_by} />
      </td>
      <td>
        {apiKey.revoked_at ? (
          <span>
            Revoked <RelativeTime value={apiKey.revoked_at} />
          </span>
        ) : (
          <ConfirmDialog
            trigger={
              <button type="button" className="button small danger" aria-label={`Revoke ${name}`}>
                Revoke
              </button>
            }
            title={`Revoke ${name}?`}
            description="Requests with this key are refused from now on (401). This cannot be undone: a new key is a new secret."
            confirmLabel="Revoke key"
            danger
            onConfirm={onRevoke}
          />
        )}
      </td>
    </tr>
  );
}

function KeysList() {
  const keys = useApiKeys();
  const revoke = useRevokeKey();
  return (
    <>
      <QueryState query={keys} loading="Loading API keys…" isEmpty={() => keys.items.length === 0} empty={<p>No API keys yet. Generate one for a script or a service that calls the API.</p>}>
        {() => (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">API keys, oldest first</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Starts with</th>
                  <th scope="col">Role</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Created by</th>
                  <th scope="col">Revoke</th>
                </tr>
              </thead>
              <tbody>
                {keys.items.map((apiKey) => (
                  <KeyRow key={apiKey.key_id} apiKey={apiKey} onRevoke={() => revoke.mutateAsync(apiKey.key_id)} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
      <LoadMore query={keys} />
    </>
  );
}

/** `API keys`: the tenant's keys (admins), `Generate new key`, `Revoke`. */
export function ApiKeysPanel() {
  return (
    <section aria-labelledby="api-keys-heading">
      <div className="page-head">
        <h2 id="api-keys-heading">API keys</h2>
        <IfAllowed role="admin">
          <GenerateKeyDialog />
        </IfAllowed>
      </div>
      <AdminOnly what="API keys">
        <KeysList />
      </AdminOnly>
    </section>
  );
}
