import { useCopy } from '../lib/use-copy';

/** An identifier in monospace with a button that copies it; the button says what it copies. */
export function CopyableId({ value, label = 'identifier' }: { value: string; label?: string }) {
  const { copied, copy } = useCopy(value);
  return (
    <span className="copyable">
      <code>{value}</code>
      <button type="button" className="button small ghost" onClick={() => void copy()} aria-label={`${copied ? 'Copied' : 'Copy'} ${label} ${value}`}>
        {copied ? 'Copied' : 'Copy'}
      </button>
      <span className="visually-hidden" aria-live="polite">
        {copied ? `${label} copied` : ''}
      </span>
    </span>
  );
}
