import { useMe } from '../api/me';
import { signOut } from '../auth/session';

/** Who is signed in (email, or the API key's id), their role, and `Sign out`. */
export function SignedInAs() {
  const me = useMe();
  const who = me.data ? (me.data.principal.email ?? me.data.principal.name ?? me.data.principal.id) : '';
  return (
    <div className="signed-in">
      {me.data && (
        <span>
          <span className="visually-hidden">Signed in as </span>
          <strong>{who}</strong> <span className="role">{me.data.role}</span>
        </span>
      )}
      <button type="button" className="button small" onClick={() => void signOut()}>
        Sign out
      </button>
    </div>
  );
}
