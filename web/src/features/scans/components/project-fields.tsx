import { DETECTORS, detectorLabel } from '../lib/finding-filters';

/** What the project form edits: the fields of POST /projects and PATCH /projects/{id}. */
export interface ProjectDraft {
  name: string;
  target: string;
  detectors: string[];
  maxPages: string;
  timeoutSeconds: string;
}

export function draftOf(project?: { name: string; target: string; default_detectors: string[]; crawl: { max_pages?: number; timeout_seconds?: number } }): ProjectDraft {
  return { name: project?.name ?? '', target: project?.target ?? '', detectors: project?.default_detectors ?? [...DETECTORS], maxPages: String(project?.crawl.max_pages ?? 10), timeoutSeconds: String(project?.crawl.timeout_seconds ?? 10) };
}

/** The request body for a draft (numbers as numbers; an empty number field keeps the API's default). */
export function bodyOf(draft: ProjectDraft) {
  const crawl: { max_pages?: number; timeout_seconds?: number } = {};
  if (draft.maxPages.trim()) crawl.max_pages = Number(draft.maxPages);
  if (draft.timeoutSeconds.trim()) crawl.timeout_seconds = Number(draft.timeoutSeconds);
  return { name: draft.name.trim(), target: draft.target.trim(), default_detectors: draft.detectors as (typeof DETECTORS)[number][], crawl };
}

interface ProjectFieldsProps {
  draft: ProjectDraft;
  onChange: (draft: ProjectDraft) => void;
  errors: Record<string, string>;
  idPrefix: string;
  disabled?: boolean;
}

function Error({ id, message }: { id: string; message?: string }) {
  return message ? (
    <span className="field-error" id={id}>
      {message}
    </span>
  ) : null;
}

/** Name, target URL, detectors and crawl limits, each labelled, with the API's complaints beside them. */
export function ProjectFields({ draft, onChange, errors, idPrefix, disabled }: ProjectFieldsProps) {
  const text = (key: 'name' | 'target' | 'maxPages' | 'timeoutSeconds', label: string, errorKey: string, extra: Record<string, unknown> = {}) => {
    const id = `${idPrefix}-${key}`;
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input id={id} value={draft[key]} disabled={disabled} aria-invalid={Boolean(errors[errorKey])} aria-describedby={errors[errorKey] ? `${id}-error` : undefined} onChange={(event) => onChange({ ...draft, [key]: event.target.value })} {...extra} />
        <Error id={`${id}-error`} message={errors[errorKey]} />
      </div>
    );
  };
  const toggle = (detector: string, on: boolean) => onChange({ ...draft, detectors: on ? [...draft.detectors, detector] : draft.detectors.filter((name) => name !== detector) });
  return (
    <>
      {text('name', 'Name', 'name', { required: true, maxLength: 200 })}
      {text('target', 'Target URL', 'target', { required: true, type: 'url', inputMode: 'url', placeholder: 'https://www.example.com/' })}
      <fieldset disabled={disabled}>
        <legend>Detectors</legend>
        {DETECTORS.map((detector) => (
          <label className="check" key={detector}>
            <input type="checkbox" checked={draft.detectors.includes(detector)} onChange={(event) => toggle(detector, event.target.checked)} /> {detectorLabel(detector)}
          </label>
        ))}
        <Error id={`${idPrefix}-detectors-error`} message={errors.default_detectors} />
      </fieldset>
      {text('maxPages', 'Pages to crawl at most (1–50)', 'crawl.max_pages', { type: 'number', min: 1, max: 50, inputMode: 'numeric' })}
      {text('timeoutSeconds', 'Seconds to wait per page (1–30)', 'crawl.timeout_seconds', { type: 'number', min: 1, max: 30, inputMode: 'numeric' })}
    </>
  );
}
