import { Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { FormDialog } from './FormDialog';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  body: ReactNode;
  confirmLabel: string;
  /** Red for something that cannot be taken back (delete), brand otherwise. */
  destructive?: boolean;
  loading?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** "Are you sure?" before an action that is hard to take back; Escape or Cancel leave things be. */
export function ConfirmDialog({ open, title, body, confirmLabel, destructive, loading, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <FormDialog
      open={open}
      role="alertdialog"
      title={title}
      submitLabel={confirmLabel}
      destructive={destructive}
      loading={loading}
      onSubmit={onConfirm}
      onCancel={onCancel}
    >
      <Text color="fg.muted">{body}</Text>
    </FormDialog>
  );
}
