import { Field, Input } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { FormDialog } from '../../components/FormDialog';

export function NewFolderDialog({
  open,
  loading,
  onCreate,
  onCancel,
}: {
  open: boolean;
  loading?: boolean;
  onCreate: (name: string) => void;
  onCancel: () => void;
}) {
  const intl = useIntl();
  const [name, setName] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (open) setName('');
  }, [open]);
  return (
    <FormDialog
      open={open}
      maxW="sm"
      initialFocus={input}
      title={<FormattedMessage id="files.newFolder.title" />}
      submitLabel={<FormattedMessage id="files.newFolder.create" />}
      loading={loading}
      submitDisabled={!name.trim()}
      onSubmit={() => onCreate(name.trim())}
      onCancel={onCancel}
    >
      <Field.Root required>
        <Field.Label>
          <FormattedMessage id="files.newFolder.name" />
        </Field.Label>
        <Input
          ref={input}
          value={name}
          maxLength={255}
          autoComplete="off"
          placeholder={intl.formatMessage({ id: 'files.newFolder.placeholder' })}
          onChange={(e) => setName(e.target.value)}
        />
      </Field.Root>
    </FormDialog>
  );
}
