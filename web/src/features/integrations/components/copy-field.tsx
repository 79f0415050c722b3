import { useId } from 'react';
import { useCopy } from '../../../lib/use-copy';

/** A value to paste elsewhere (a URL for another service's settings): read-only, selected on focus, with a copy button. */
export function CopyField({ label, value, hint }: { label: string; value: string; hint?: string }) {
  const id = useId();
  const { copied, copy } = useCopy(value);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input id={id} readOnly value={value} aria-describedby={hint ? `${id}-hint` : undefined} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" className="button" onClick={() => void copy()} aria-label={`${copied ? 'Copied' : 'Copy'} ${label}`}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      {hint && (
        <span id={`${id}-hint`} className="field-hint">
          {hint}
        </span>
      )}
      <span className="visually-hidden" aria-live="polite">
        {copied ? `${label} copied to the clipboard` : ''}
      </span>
    </div>
  );
}
