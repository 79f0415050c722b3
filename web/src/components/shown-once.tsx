import { useId, useState } from 'react';

/**
 * A secret the API answers only once (a new API key, a webhook's signing secret): in a read-only
 * field with a copy button, and a plain warning that it will not be shown again.
 */
/** `label` names the field ("New API key"), `what` the thing copied ("API key"). */
export function ShownOnce({ value, label, what }: { value: string; label: string; what: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(value).catch(() => undefined);
    setCopied(true);
  };
  return (
    <div className="shown-once">
      <p className="warning" id={`${id}-warning`}>
        <strong>Copy it now: you will not see it again.</strong> Gatehouse keeps no copy it could show you later.
      </p>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <div className="copy-row">
          <input id={id} readOnly value={value} aria-describedby={`${id}-warning`} onFocus={(event) => event.currentTarget.select()} />
          <button type="button" className="button" onClick={() => void copy()}>
            {copied ? 'Copied' : `Copy ${what}`}
          </button>
        </div>
        <span className="visually-hidden" aria-live="polite">
          {copied ? `${what} copied to the clipboard` : ''}
        </span>
      </div>
    </div>
  );
}
