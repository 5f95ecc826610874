import { Button, Dialog, Field, Input, Portal, Stack } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { useLocalePath } from '../../i18n/useLocale';
import { DescriptionAndTagsFields } from './DescriptionAndTagsFields';
import { useCreateWorkflowMutation } from './workflowsApi';

/** Tags typed as "sales, weekly" become ["sales", "weekly"]: trimmed, no blanks, no repeats. */
export function parseTags(text: string): string[] {
  return [...new Set(text.split(',').map((t) => t.trim()).filter(Boolean))];
}

/** New workflow: name (required), description, tags; on success the editor opens on it. */
export function CreateWorkflowDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const [createWorkflow, { isLoading }] = useCreateWorkflowMutation();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const t = (id: string) => intl.formatMessage({ id });

  const close = () => {
    setName('');
    setDescription('');
    setTags('');
    setNameError(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setNameError(t('workflows.create.nameRequired'));
      return;
    }
    const result = await createWorkflow({ name: name.trim(), description: description.trim(), tags: parseTags(tags) });
    if ('data' in result && result.data) {
      close();
      navigate(localePath(`/workflows/${result.data.id}`));
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={(d) => !d.open && close()} placement="center" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content maxW="lg" asChild>
            <form onSubmit={submit} noValidate>
              <Dialog.Header>
                <Dialog.Title>{t('workflows.create.title')}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  <Field.Root invalid={Boolean(nameError)} required>
                    <Field.Label>
                      {t('workflows.field.name')}
                      <Field.RequiredIndicator />
                    </Field.Label>
                    <Input
                      name="name"
                      value={name}
                      maxLength={200}
                      autoFocus
                      placeholder={t('workflows.field.namePlaceholder')}
                      onChange={(e) => {
                        setName(e.target.value);
                        setNameError(null);
                      }}
                    />
                    {nameError && <Field.ErrorText>{nameError}</Field.ErrorText>}
                  </Field.Root>
                  <DescriptionAndTagsFields description={description} onDescriptionChange={setDescription} tags={tags} onTagsChange={setTags} />
                </Stack>
              </Dialog.Body>
              <Dialog.Footer gap="2">
                <Button variant="outline" onClick={close}>
                  {t('common.cancel')}
                </Button>
                <Button type="submit" colorPalette="brand" loading={isLoading}>
                  {t('workflows.create.submit')}
                </Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
