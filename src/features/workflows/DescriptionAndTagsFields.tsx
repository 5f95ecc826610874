import { Field, Input, Textarea } from '@chakra-ui/react';
import { useIntl } from 'react-intl';

/** A workflow's description and comma-separated tags, as created and as edited later. */
export function DescriptionAndTagsFields(props: {
  description: string;
  onDescriptionChange: (value: string) => void;
  tags: string;
  onTagsChange: (value: string) => void;
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  return (
    <>
      <Field.Root>
        <Field.Label>{t('workflows.field.description')}</Field.Label>
        <Textarea name="description" value={props.description} maxLength={5000} rows={3} onChange={(e) => props.onDescriptionChange(e.target.value)} />
      </Field.Root>
      <Field.Root>
        <Field.Label>{t('workflows.field.tags')}</Field.Label>
        <Input name="tags" value={props.tags} placeholder={t('workflows.field.tagsPlaceholder')} onChange={(e) => props.onTagsChange(e.target.value)} />
        <Field.HelperText>{t('workflows.field.tagsHelp')}</Field.HelperText>
      </Field.Root>
    </>
  );
}
