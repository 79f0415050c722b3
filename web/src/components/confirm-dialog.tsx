import { useState, type ReactElement } from 'react';
import * as RadixDialog from '@radix-ui/react-dialog';
import { ProblemMessage } from './problem-message';

interface ConfirmDialogProps {
  /** The button that opens it (rendered as is). */
  trigger: ReactElement;
  title: string;
  description: string;
  /** The confirming button's words, e.g. "Cancel task". */
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  danger?: boolean;
}

/** Asks before an action that cannot be undone; shows the action's failure in words inside. */
export function ConfirmDialog({ trigger, title, description, confirmLabel, onConfirm, danger }: ConfirmDialogProps) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm();
      setOpen(false);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => (setOpen(next), setError(undefined))}>
      <RadixDialog.Trigger asChild>{trigger}</RadixDialog.Trigger>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content className="dialog" role="alertdialog">
          <RadixDialog.Title className="dialog-title">{title}</RadixDialog.Title>
          <RadixDialog.Description>{description}</RadixDialog.Description>
          {error !== undefined && <ProblemMessage error={error} />}
          <div className="actions">
            <RadixDialog.Close asChild>
              <button type="button" className="button ghost">
                Keep it
              </button>
            </RadixDialog.Close>
            <button type="button" className={danger ? 'button danger' : 'button primary'} disabled={busy} onClick={() => void confirm()}>
              {busy ? 'Working…' : confirmLabel}
            </button>
          </div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
