import { useState, type FormEvent } from 'react';
import { ProblemMessage } from '../../../components/problem-message';
import { fieldErrors } from '../../../api/problem-error';
import { usePermission } from '../../../lib/permissions';
import { useUpdateProject, type Project } from '../api/use-projects';
import { bodyOf, draftOf, ProjectFields } from './project-fields';

/** The project's settings (PATCH /projects/{id}): name, target, default detectors, crawl settings. */
export function ProjectSettings({ project }: { project: Project }) {
  const permission = usePermission('operator');
  const update = useUpdateProject(project.project_id);
  const [draft, setDraft] = useState(() => draftOf(project));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(bodyOf(draft));
  };
  return (
    <section aria-labelledby="project-settings-heading">
      <h2 id="project-settings-heading">Settings</h2>
      {!permission.allowed && <p className="field-hint">{permission.reason}</p>}
      <form onSubmit={submit} noValidate className="card">
        <ProjectFields draft={draft} onChange={setDraft} errors={fieldErrors(update.error, 'body')} idPrefix="project" disabled={!permission.allowed} />
        {update.error && <ProblemMessage error={update.error} />}
        <div className="actions">
          <button type="submit" className="button" disabled={!permission.allowed || update.isPending}>
            {update.isPending ? 'Saving…' : 'Save settings'}
          </button>
          <span role="status">{update.isSuccess ? 'Saved.' : ''}</span>
        </div>
      </form>
    </section>
  );
}
