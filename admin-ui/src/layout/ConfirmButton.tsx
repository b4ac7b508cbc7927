import { Button, type ButtonProps } from '@mui/material';
import { type ReactNode, useState } from 'react';
import { Confirm } from 'react-admin';

/**
 * A button for an action that cannot be undone (close a round, refund an order): it asks first,
 * in a dialog that names what will happen, and runs `onConfirm` only once that is accepted.
 * Texts are already translated.
 */
export function ConfirmButton({
  children,
  title,
  content,
  confirm,
  onConfirm,
  confirmColor = 'primary',
  ...button
}: Omit<ButtonProps, 'onClick' | 'title' | 'content'> & {
  children: ReactNode;
  title: string;
  content: string;
  /** The dialog's accept button: the action's name, never a bare "OK". */
  confirm: string;
  onConfirm: () => Promise<unknown>;
  confirmColor?: 'primary' | 'warning';
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };
  return (
    <>
      <Button {...button} disabled={button.disabled || busy} onClick={() => setAsking(true)}>
        {children}
      </Button>
      <Confirm
        isOpen={asking}
        loading={busy}
        title={title}
        content={content}
        confirm={confirm}
        confirmColor={confirmColor}
        // Not "Cancel": beside "Cancel round" or "Cancel order" that would read as the action.
        cancel="app.confirm.back"
        onConfirm={() => void run()}
        onClose={() => setAsking(false)}
      />
    </>
  );
}
