import { useState, type FormEvent } from 'react';
import { ROLES } from '#shared/domain/roles';
import { fieldErrors } from '../../../api/problem-error';
import { Dialog } from '../../../components/dialog';
import { ProblemMessage } from '../../../components/problem-message';
import { ShownOnce } from '../../../components/shown-once';
import { useMe } from '../../../api/me';
import { permissionOf, type Role } from '../../../lib/permissions';
import { useGenerateKey } from '../api/api-keys';

/** `Generate new key`: name and role; the key itself is shown once, with a copy button. */
export function GenerateKeyDialog() {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const generate = useGenerateKey();
  const myRole = useMe().data?.role;
  // A key never gets a role above its creator's (the API answers 403 otherwise).
  const roles = ROLES.filter((item) => permissionOf(myRole, item).allowed);
  const errors = fieldErrors(generate.error, 'body');
  const close = (next: boolean) => {
    setOpen(next);
    if (!next) (generate.reset(), setName(''), setRole('viewer'));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    generate.mutate({ name: name.trim(), role });
  };
  const created = generate.data;
  return (
    <>
      <button type="button" className="button primary" onClick={() => setOpen(true)}>
        Generate new key
      </button>
      <Dialog open={open} onOpenChange={close} title={created ? 'Your new API key' : 'Generate new key'} description={created ? undefined : 'A key acts for your tenant with the role you give it.'}>
        {created ? (
          <>
            <p>
              <strong>{created.name}</strong> ({created.role}), starting <code>{created.display_prefix}</code>. Send it as <code>Authorization: Bearer &lt;key&gt;</code>.
            </p>
            <ShownOnce value={created.key} label="New API key" what="API key" />
            <div className="actions">
              <button type="button" className="button primary" onClick={() => close(false)}>
                Done
              </button>
            </div>
          </>
        ) : (
          <form onSubmit={submit}>
            {generate.error && !errors.name && <ProblemMessage error={generate.error} />}
            <div className="field">
              <label htmlFor="key-name">Name</label>
              <input id="key-name" required maxLength={100} value={name} placeholder="e.g. CI pipeline" aria-invalid={errors.name ? true : undefined} aria-describedby="key-name-hint key-name-error" onChange={(event) => setName(event.target.value)} />
              <span id="key-name-hint" className="field-hint">
                Says where the key is used, so you know what breaks when you revoke it.
              </span>
              <span id="key-name-error" className="field-error">
                {errors.name}
              </span>
            </div>
            <div className="field">
              <label htmlFor="key-role">Role</label>
              <select id="key-role" value={role} onChange={(event) => setRole(event.target.value as Role)}>
                {roles.map((item) => (
                  <option key={item} value={item}>
                    {item}
                  </option>
                ))}
              </select>
            </div>
            <div className="actions">
              <button type="submit" className="button primary" disabled={generate.isPending}>
                {generate.isPending ? 'Generating…' : 'Generate key'}
              </button>
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}
