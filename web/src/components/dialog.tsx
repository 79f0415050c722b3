import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  children: ReactNode;
}

/** A modal dialog (Radix: focus kept inside, Escape closes, focus returns to the opener). */
export function Dialog({ open, onOpenChange, title, description, children }: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content className="dialog">
          <RadixDialog.Title className="dialog-title">{title}</RadixDialog.Title>
          {description ? <RadixDialog.Description className="muted">{description}</RadixDialog.Description> : <RadixDialog.Description className="visually-hidden">{title}</RadixDialog.Description>}
          {children}
          <RadixDialog.Close asChild>
            <button type="button" className="dialog-close button ghost small" aria-label="Close">
              ×
            </button>
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
