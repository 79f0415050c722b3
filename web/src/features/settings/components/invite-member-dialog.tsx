import { useState, type FormEvent } from 'react';
import { MEMBER_ROLES as ROLES } from '#shared/domain/roles';
import { fieldErrors } from '../../../api/problem-error';
import { Dialog } from '../../../components/dialog';
import type { MemberRole as Role } from '#shared/domain/roles';
import { useMemberMutations } from '../api/members';
import { MemberProblem } from './member-problem';

/** `Invite member`: an email and a role; the person becomes active at their first sign-in. */
export function InviteMemberDialog() {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const { invite } = useMemberMutations();
  const errors = fieldErrors(invite.error, 'body');
  const close = (next: boolean) => {
    setOpen(next);
    if (!next) (invite.reset(), setEmail(''), setRole('viewer'));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate({ email: email.trim(), role }, { onSuccess: () => close(false) });
  };
  return (
    <>
      <button type="button" className="button primary" onClick={() => setOpen(true)}>
        Invite member
      </button>
      <Dialog open={open} onOpenChange={close} title="Invite member" description="They sign in with this email and get this role in your tenant.">
        <form onSubmit={submit}>
          {invite.error && !errors.email && <MemberProblem error={invite.error} />}
          <div className="field">
            <label htmlFor="member-email">Email</label>
            <input id="member-email" type="email" required autoComplete="off" value={email} aria-invalid={errors.email ? true : undefined} aria-describedby="member-email-error" onChange={(event) => setEmail(event.target.value)} />
            <span id="member-email-error" className="field-error">
              {errors.email}
            </span>
          </div>
          <div className="field">
            <label htmlFor="member-role">Role</label>
            <select id="member-role" value={role} onChange={(event) => setRole(event.target.value as Role)}>
              {ROLES.map((item) => (
                <option key={item} value={item}>
                  {item}
                </option>
              ))}
            </select>
          </div>
          <div className="actions">
            <button type="submit" className="button primary" disabled={invite.isPending}>
              {invite.isPending ? 'Inviting…' : 'Send invitation'}
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
