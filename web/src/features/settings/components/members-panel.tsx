import { MEMBER_ROLES as ROLES } from '#shared/domain/roles';
import { useMe } from '../../../api/me';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { IfAllowed } from '../../../components/if-allowed';
import { LoadMore } from '../../../components/load-more';
import { Principal } from '../../../components/principal';
import { QueryState } from '../../../components/query-state';
import { RelativeTime } from '../../../components/relative-time';
import { StatusBadge } from '../../../components/status-badge';
import type { MemberRole as Role } from '#shared/domain/roles';
import { memberConflictMessage, useMemberMutations, useMembers, type Member } from '../api/members';
import { AdminOnly } from './admin-only';
import { InviteMemberDialog } from './invite-member-dialog';
import { MemberProblem } from './member-problem';

interface MemberRowProps {
  member: Member;
  mine: boolean;
  busy: boolean;
  onRole: (role: Role) => void;
  onRemove: () => Promise<unknown>;
}

function MemberRow({ member, mine, busy, onRole, onRemove }: MemberRowProps) {
  return (
    <tr>
      <th scope="row" className="wrap">
        {member.email}
        {mine && <strong> (you)</strong>}
        {member.name && <div className="muted">{member.name}</div>}
      </th>
      <td>
        <label className="visually-hidden" htmlFor={`role-${member.user_id}`}>
          Role of {member.email}
        </label>
        <select id={`role-${member.user_id}`} value={member.role} disabled={busy} onChange={(event) => onRole(event.target.value as Role)}>
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </select>
      </td>
      <td>
        <StatusBadge status={member.status} />
      </td>
      <td>
        <RelativeTime value={member.created_at} />
        <div>
          <Principal principal={member.added_by} />
        </div>
      </td>
      <td>
        <ConfirmDialog
          trigger={
            <button type="button" className="button small danger" aria-label={`Remove ${member.email}`}>
              Remove
            </button>
          }
          title={`Remove ${member.email}?`}
          description={mine ? 'You lose access to this tenant at once.' : 'They lose access to this tenant; their sign-ins stop working.'}
          confirmLabel="Remove member"
          danger
          onConfirm={onRemove}
        />
      </td>
    </tr>
  );
}

function MembersList() {
  const members = useMembers();
  const { changeRole, remove } = useMemberMutations();
  const me = useMe();
  // The confirm dialog shows a thrown error's message: give it the refusal in plain words.
  const removeMember = (userId: string) =>
    remove.mutateAsync(userId).catch((error: unknown) => {
      const words = memberConflictMessage(error);
      throw words ? new Error(words) : error;
    });
  return (
    <>
      {changeRole.error && <MemberProblem error={changeRole.error} />}
      <p role="status" className="muted">
        {changeRole.isSuccess ? `${changeRole.data.email} is now ${changeRole.data.role}.` : ''}
      </p>
      <QueryState query={members} loading="Loading members…" isEmpty={() => members.items.length === 0} empty={<p>No members yet. Invite the people who work in this tenant.</p>}>
        {() => (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Members of your tenant, oldest first</caption>
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">Added</th>
                  <th scope="col">Remove</th>
                </tr>
              </thead>
              <tbody>
                {members.items.map((member) => (
                  <MemberRow
                    key={member.user_id}
                    member={member}
                    mine={me.data?.principal.id === member.user_id}
                    busy={changeRole.isPending && changeRole.variables?.userId === member.user_id}
                    onRole={(role) => changeRole.mutate({ userId: member.user_id, role })}
                    onRemove={() => removeMember(member.user_id)}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
      <LoadMore query={members} />
    </>
  );
}

/** `Members`: who signs in to this tenant and with which role; admins invite, change roles and remove. */
export function MembersPanel() {
  return (
    <section aria-labelledby="members-heading">
      <div className="page-head">
        <h2 id="members-heading">Members</h2>
        <IfAllowed role="admin">
          <InviteMemberDialog />
        </IfAllowed>
      </div>
      <AdminOnly what="members">
        <MembersList />
      </AdminOnly>
    </section>
  );
}
