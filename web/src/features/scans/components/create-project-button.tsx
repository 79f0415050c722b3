import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '../../../components/dialog';
import { ProblemMessage } from '../../../components/problem-message';
import { fieldErrors } from '../../../api/problem-error';
import { useCreateProject } from '../api/use-projects';
import { bodyOf, draftOf, ProjectFields } from './project-fields';

/** `Create project`: a dialog with the project's fields; the new project's page opens after. */
export function CreateProjectButton() {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(draftOf);
  const create = useCreateProject();
  const navigate = useNavigate();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(bodyOf(draft), { onSuccess: (project) => navigate(`/scans/projects/${project.project_id}`) });
  };
  return (
    <>
      <button type="button" className="button primary" onClick={() => (setOpen(true), create.reset())}>
        Create project
      </button>
      <Dialog open={open} onOpenChange={setOpen} title="Create project" description="A website to scan: Gatehouse crawls it from the target URL, staying on its origin.">
        <form onSubmit={submit} noValidate>
          <ProjectFields draft={draft} onChange={setDraft} errors={fieldErrors(create.error, 'body')} idPrefix="new-project" />
          {create.error && <ProblemMessage error={create.error} />}
          <div className="actions">
            <button type="submit" className="button primary" disabled={create.isPending}>
              {create.isPending ? 'Creating…' : 'Create project'}
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
