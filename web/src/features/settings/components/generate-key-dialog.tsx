import { useState, type FormEvent } from 'react';
import { MEMBER_ROLES, type Role } from '#shared/domain/roles';
import { fieldErrors } from '../../../api/problem-error';
import { Dialog } from '../../../components/dialog';
import { ProblemMessage } from '../../../components/problem-message';
import { ShownOnce } from '../../../components/shown-once';
import { useMe } from '../../../api/me';
import { permissionOf } from '../../../lib/permissions';
import { useAgents } from '../../agents/api/agents';
import { useGenerateKey } from '../api/api-keys';

/**
 * `Generate new key`: name and role; the key itself is shown once, with a copy button. An admin
 * may also make an `agent` key for one of the tenant's custom agents: its workers' key, which can
 * do nothing but that agent's worker protocol (docs/workers.md).
 */
export function GenerateKeyDialog() {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [agent, setAgent] = useState('');
  const generate = useGenerateKey();
  const myRole = useMe().data?.role;
  const customAgents = (useAgents().data ?? []).filter((candidate) => candidate.kind === 'custom');
  // A key never gets a role above its creator's (the API answers 403 otherwise); only an admin makes agent keys.
  const roles: Role[] = [...MEMBER_ROLES.filter((item) => permissionOf(myRole, item).allowed), ...(myRole === 'admin' && customAgents.length > 0 ? (['agent'] as const) : [])];
  const errors = fieldErrors(generate.error, 'body');
  const close = (next: boolean) => {
    setOpen(next);
    if (!next) (generate.reset(), setName(''), setRole('viewer'), setAgent(''));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    generate.mutate({ name: name.trim(), role, ...(role === 'agent' ? { agent: agent || customAgents[0]?.agent_slug } : {}) });
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
                    {item === 'agent' ? 'agent (a custom agent\'s workers)' : item}
                  </option>
                ))}
              </select>
            </div>
            {role === 'agent' && (
              <div className="field">
                <label htmlFor="key-agent">Custom agent</label>
                <select id="key-agent" value={agent || customAgents[0]?.agent_slug} aria-describedby="key-agent-hint key-agent-error" onChange={(event) => setAgent(event.target.value)}>
                  {customAgents.map((item) => (
                    <option key={item.agent_id} value={item.agent_slug}>
                      {item.name} ({item.agent_slug})
                    </option>
                  ))}
                </select>
                <span id="key-agent-hint" className="field-hint">
                  Its workers claim this agent&apos;s tasks with the key; it can do nothing else.
                </span>
                <span id="key-agent-error" className="field-error">
                  {errors.agent}
                </span>
              </div>
            )}
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
