import { Button, Dialog, Field, Input, Portal } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';

export function NewFolderDialog({ open, loading, onCreate, onCancel }: { open: boolean; loading?: boolean; onCreate: (name: string) => void; onCancel: () => void }) {
  const intl = useIntl();
  const [name, setName] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (open) setName('');
  }, [open]);
  return (
    <Dialog.Root open={open} onOpenChange={(d) => !d.open && onCancel()} placement="center" lazyMount unmountOnExit initialFocusEl={() => input.current}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content maxW="sm" asChild>
            <form
              onSubmit={(e) => {
                e.preventDefault();
                if (name.trim()) onCreate(name.trim());
              }}
            >
              <Dialog.Header>
                <Dialog.Title>
                  <FormattedMessage id="files.newFolder.title" />
                </Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Field.Root required>
                  <Field.Label>
                    <FormattedMessage id="files.newFolder.name" />
                  </Field.Label>
                  <Input ref={input} value={name} maxLength={255} autoComplete="off" placeholder={intl.formatMessage({ id: 'files.newFolder.placeholder' })} onChange={(e) => setName(e.target.value)} />
                </Field.Root>
              </Dialog.Body>
              <Dialog.Footer gap="2">
                <Button variant="outline" onClick={onCancel}>
                  {intl.formatMessage({ id: 'common.cancel' })}
                </Button>
                <Button type="submit" colorPalette="brand" loading={loading} disabled={!name.trim()}>
                  <FormattedMessage id="files.newFolder.create" />
                </Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
