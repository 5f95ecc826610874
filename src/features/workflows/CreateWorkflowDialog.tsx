import { Field, Input, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { FormDialog } from '../../components/FormDialog';
import { useLocalePath } from '../../i18n/useLocale';
import { DescriptionAndTagsFields } from './DescriptionAndTagsFields';
import { NAME_MAX_LENGTH, NameLimit } from './NameLimit';
import { useCreateWorkflowMutation } from './workflowsApi';

/** Tags typed as "sales, weekly" become ["sales", "weekly"]: trimmed, no blanks, no repeats. */
export function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
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

  const submit = async () => {
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
    <FormDialog
      open={open}
      maxW="lg"
      title={t('workflows.create.title')}
      submitLabel={t('workflows.create.submit')}
      loading={isLoading}
      onSubmit={submit}
      onCancel={close}
    >
      <Stack gap="4">
        <Field.Root invalid={Boolean(nameError)} required>
          <Field.Label>
            {t('workflows.field.name')}
            <Field.RequiredIndicator />
          </Field.Label>
          <Input
            name="name"
            value={name}
            maxLength={NAME_MAX_LENGTH}
            autoFocus
            aria-describedby="new-workflow-name-limit"
            placeholder={t('workflows.field.namePlaceholder')}
            onChange={(e) => {
              setName(e.target.value);
              setNameError(null);
            }}
          />
          {nameError ? <Field.ErrorText>{nameError}</Field.ErrorText> : <NameLimit id="new-workflow-name-limit" length={name.length} />}
        </Field.Root>
        <DescriptionAndTagsFields description={description} onDescriptionChange={setDescription} tags={tags} onTagsChange={setTags} />
      </Stack>
    </FormDialog>
  );
}
