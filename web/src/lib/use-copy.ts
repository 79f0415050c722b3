import { useState } from 'react';

/** Copies a value to the clipboard; `copied` is true for a moment after, for the button to say so. */
export function useCopy(value: string): { copied: boolean; copy: () => Promise<void> } {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(value).catch(() => undefined);
    setCopied(true);
    window.setTimeout(() => setCopied(false), 1500);
  };
  return { copied, copy };
}
