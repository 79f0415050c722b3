import { useState } from 'react';

/** An identifier in monospace with a button that copies it; the button says what it copies. */
export function CopyableId({ value, label = 'identifier' }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(value).catch(() => undefined);
    setCopied(true);
    window.setTimeout(() => setCopied(false), 1500);
  };
  return (
    <span className="copyable">
      <code>{value}</code>
      <button type="button" className="button small ghost" onClick={() => void copy()} aria-label={`Copy ${label} ${value}`}>
        {copied ? 'Copied' : 'Copy'}
      </button>
      <span className="visually-hidden" aria-live="polite">
        {copied ? `${label} copied` : ''}
      </span>
    </span>
  );
}
