import { Field } from '../../../components/field';
import { DETECTORS, detectorLabel } from '../lib/finding-filters';

/** What the project form edits: the fields of POST /projects and PATCH /projects/{id}. */
export interface ProjectDraft {
  name: string;
  target: string;
  detectors: string[];
  maxPages: string;
  timeoutSeconds: string;
  respectRobotsTxt: boolean;
  /** Path patterns, one a line. */
  include: string;
  exclude: string;
}

interface CrawlSettings {
  max_pages?: number;
  timeout_seconds?: number;
  respect_robots_txt?: boolean;
  include?: string[];
  exclude?: string[];
}

export function draftOf(project?: { name: string; target: string; default_detectors: string[]; crawl: CrawlSettings }): ProjectDraft {
  return {
    name: project?.name ?? '',
    target: project?.target ?? '',
    detectors: project?.default_detectors ?? [...DETECTORS],
    maxPages: String(project?.crawl.max_pages ?? 10),
    timeoutSeconds: String(project?.crawl.timeout_seconds ?? 10),
    respectRobotsTxt: project?.crawl.respect_robots_txt ?? true,
    include: (project?.crawl.include ?? []).join('\n'),
    exclude: (project?.crawl.exclude ?? []).join('\n'),
  };
}

const linesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** The request body for a draft (numbers as numbers; an empty number field keeps the API's default). */
export function bodyOf(draft: ProjectDraft) {
  const crawl: CrawlSettings = { respect_robots_txt: draft.respectRobotsTxt, include: linesOf(draft.include), exclude: linesOf(draft.exclude) };
  if (draft.maxPages.trim()) crawl.max_pages = Number(draft.maxPages);
  if (draft.timeoutSeconds.trim()) crawl.timeout_seconds = Number(draft.timeoutSeconds);
  return { name: draft.name.trim(), target: draft.target.trim(), default_detectors: draft.detectors as (typeof DETECTORS)[number][], crawl };
}

/** The API's first complaint about a pattern list (`crawl.include.2`), naming the pattern rather than its index. */
function patternError(errors: Record<string, string>, field: 'include' | 'exclude', text: string): string | undefined {
  const prefix = `crawl.${field}`;
  const key = Object.keys(errors).find((path) => path === prefix || path.startsWith(`${prefix}.`));
  if (key === undefined) return undefined;
  const pattern = linesOf(text)[Number(key.slice(prefix.length + 1))];
  return pattern === undefined ? errors[key] : `${pattern}: ${errors[key]}`;
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

/** Name, target URL, detectors and crawl settings, each labelled, with the API's complaints beside them. */
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
  const patterns = (key: 'include' | 'exclude', label: string, hint: string) => (
    <Field id={`${idPrefix}-${key}`} label={label} hint={hint} error={patternError(errors, key, draft[key])}>
      {(described) => <textarea {...described} rows={3} spellCheck={false} value={draft[key]} disabled={disabled} placeholder={key === 'include' ? '/docs/' : '/blog/drafts/\n/*.pdf$'} onChange={(event) => onChange({ ...draft, [key]: event.target.value })} />}
    </Field>
  );
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
      {patterns('include', 'Only follow links to these paths', 'One pattern a line, as in robots.txt: * matches anything, $ ends the path. Empty: every page. The target URL is always scanned.')}
      {patterns('exclude', 'Never follow links to these paths', 'One pattern a line, as in robots.txt.')}
      <label className="check">
        <input type="checkbox" checked={draft.respectRobotsTxt} disabled={disabled} onChange={(event) => onChange({ ...draft, respectRobotsTxt: event.target.checked })} /> Obey the site's robots.txt (turn off for a staging site that disallows every crawler)
      </label>
    </>
  );
}
