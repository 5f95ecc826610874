import { Button, Dialog, Portal } from '@chakra-ui/react';
import type { FormEvent, ReactNode, RefObject } from 'react';
import { useIntl } from 'react-intl';

export interface FormDialogProps {
  open: boolean;
  title: ReactNode;
  children: ReactNode;
  submitLabel: ReactNode;
  /** The secondary button's words ("Keep running" beside "Cancel run"); Cancel otherwise. */
  cancelLabel?: ReactNode;
  onSubmit: () => void;
  onCancel: () => void;
  loading?: boolean;
  submitDisabled?: boolean;
  /** Red for something that cannot be taken back (delete), brand otherwise. */
  destructive?: boolean;
  /** alertdialog for "are you sure?" questions. */
  role?: 'dialog' | 'alertdialog';
  maxW?: string;
  initialFocus?: RefObject<HTMLElement | null>;
}

/**
 * The frame every dialog of the app shares: a title, a body, Cancel and one primary action. It is a
 * form, so Enter submits and the action button is a real submit button; Escape, the backdrop and
 * Cancel all cancel.
 */
export function FormDialog({
  open,
  title,
  children,
  submitLabel,
  cancelLabel,
  onSubmit,
  onCancel,
  loading,
  submitDisabled,
  destructive,
  role,
  maxW = 'md',
  initialFocus,
}: FormDialogProps) {
  const intl = useIntl();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!submitDisabled && !loading) onSubmit();
  };
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(d) => !d.open && onCancel()}
      role={role}
      placement="center"
      lazyMount
      unmountOnExit
      initialFocusEl={initialFocus ? () => initialFocus.current : undefined}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content maxW={maxW} asChild>
            <form onSubmit={submit} noValidate>
              <Dialog.Header>
                <Dialog.Title>{title}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>{children}</Dialog.Body>
              <Dialog.Footer gap="2">
                <Button variant="outline" onClick={onCancel}>
                  {cancelLabel ?? intl.formatMessage({ id: 'common.cancel' })}
                </Button>
                <Button type="submit" colorPalette={destructive ? 'red' : 'brand'} loading={loading} disabled={submitDisabled}>
                  {submitLabel}
                </Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
