import { Button, Dialog, Portal, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';

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
  const intl = useIntl();
  return (
    <Dialog.Root open={open} onOpenChange={(d) => !d.open && onCancel()} role="alertdialog" placement="center" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content maxW="md">
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text color="fg.muted">{body}</Text>
            </Dialog.Body>
            <Dialog.Footer gap="2">
              <Button variant="outline" onClick={onCancel}>
                {intl.formatMessage({ id: 'common.cancel' })}
              </Button>
              <Button colorPalette={destructive ? 'red' : 'brand'} loading={loading} onClick={onConfirm}>
                {confirmLabel}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
