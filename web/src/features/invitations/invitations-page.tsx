import { useState } from 'react';
import { Page } from '../../components/page';
import { ProblemMessage } from '../../components/problem-message';
import { QueryState } from '../../components/query-state';
import { RelativeTime } from '../../components/relative-time';
import { useMe } from '../../api/me';
import { useInvitationMutations, useInvitations, type Invitation } from './api/invitations';

/**
 * Invitations: the tenants that invited the signed-in person, each with `Accept` and `Decline`. A
 * person of no tenant yet (role `invitee`) sees only this page; accepting makes them the member.
 */
export function InvitationsPage() {
  const invitations = useInvitations();
  const { accept, decline } = useInvitationMutations();
  const me = useMe();
  const [done, setDone] = useState('');
  const busy = accept.isPending || decline.isPending;
  const answer = async (invitation: Invitation, choice: 'accept' | 'decline') => {
    setDone('');
    if (choice === 'accept') await accept.mutateAsync(invitation.tenant_id);
    else await decline.mutateAsync(invitation.tenant_id);
    setDone(choice === 'accept' ? `You joined ${invitation.tenant_id} as ${invitation.role}.` : `You declined ${invitation.tenant_id}'s invitation.`);
  };
  return (
    <Page title="Invitations" intro="Tenants that invited you. You belong to a tenant only once you accept its invitation.">
      <p role="status">{done}</p>
      {(accept.error || decline.error) && <ProblemMessage error={accept.error ?? decline.error} />}
      <QueryState query={invitations} loading="Loading invitations…" isEmpty={(list) => list.length === 0} empty={<p>{me.data?.role === 'invitee' ? 'You have no pending invitations. Ask an admin of your team to invite you.' : 'You have no pending invitations.'}</p>}>
        {(list) => (
          <table>
            <caption className="visually-hidden">Pending invitations</caption>
            <thead>
              <tr>
                <th scope="col">Tenant</th>
                <th scope="col">Role offered</th>
                <th scope="col">Invited</th>
                <th scope="col">Answer</th>
              </tr>
            </thead>
            <tbody>
              {list.map((invitation) => (
                <tr key={invitation.tenant_id}>
                  <th scope="row">{invitation.tenant_id}</th>
                  <td>{invitation.role}</td>
                  <td>
                    <RelativeTime value={invitation.invited_at} />
                  </td>
                  <td>
                    <button type="button" className="button" disabled={busy} aria-label={`Accept ${invitation.tenant_id}`} onClick={() => void answer(invitation, 'accept').catch(() => undefined)}>
                      Accept
                    </button>{' '}
                    <button type="button" className="button" disabled={busy} aria-label={`Decline ${invitation.tenant_id}`} onClick={() => void answer(invitation, 'decline').catch(() => undefined)}>
                      Decline
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
    </Page>
  );
}
