import { Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { FormDialog } from './FormDialog';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  body: ReactNode;
  /** Shown below the body (a list of what the action affects): not inside its paragraph. */
  details?: ReactNode;
  confirmLabel: string;
  /** The secondary button's words when "Cancel" would be ambiguous (cancelling a run). */
  cancelLabel?: string;
  /** Red for something that cannot be taken back (delete), brand otherwise. */
  destructive?: boolean;
  loading?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** "Are you sure?" before an action that is hard to take back; Escape or Cancel leave things be. */
export function ConfirmDialog({ open, title, body, details, confirmLabel, cancelLabel, destructive, loading, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <FormDialog
      open={open}
      role="alertdialog"
      title={title}
      submitLabel={confirmLabel}
      cancelLabel={cancelLabel}
      destructive={destructive}
      loading={loading}
      onSubmit={onConfirm}
      onCancel={onCancel}
    >
      {details ? (
        <Stack gap="3">
          <Text color="fg.muted">{body}</Text>
          {details}
        </Stack>
      ) : (
        <Text color="fg.muted">{body}</Text>
      )}
    </FormDialog>
  );
}
