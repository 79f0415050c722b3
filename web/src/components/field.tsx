import type { ReactNode } from 'react';

/** What a control needs to be tied to its label, hint and error. */
export interface FieldProps {
  id: string;
  'aria-describedby': string;
  'aria-invalid': true | undefined;
}

/** One labelled control with its hint and its error, tied together for screen readers. */
export function Field({ id, label, hint, error, children }: { id: string; label: string; hint?: string; error?: string; children: (described: FieldProps) => ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': hint ? `${id}-hint ${id}-error` : `${id}-error`, 'aria-invalid': error ? true : undefined })}
      {hint && (
        <span id={`${id}-hint`} className="field-hint">
          {hint}
        </span>
      )}
      <span id={`${id}-error`} className="field-error">
        {error}
      </span>
    </div>
  );
}

/** The first field error under `prefix` (`settings.approvers` covers `settings.approvers.0`). */
export function errorUnder(errors: Record<string, string>, prefix: string): string | undefined {
  const key = Object.keys(errors).find((path) => path === prefix || path.startsWith(`${prefix}.`));
  return key === undefined ? undefined : key === prefix ? errors[key] : `${key.slice(prefix.length + 1)}: ${errors[key]}`;
}

/** The form's summary of its field errors, announced once the API answered with them. */
export function FieldErrorCount({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <p className="field-error" role="alert">
      {count === 1 ? 'One field needs attention.' : `${count} fields need attention.`}
    </p>
  );
}
