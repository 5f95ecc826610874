import { Badge, DataList, HStack, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import type { WorkflowOut } from '../../../../server/src/modules/workflows/workflows.schemas';
import { FormDialog } from '../../../components/FormDialog';
import { formatCredits } from '../../usage/format';
import { parseTags } from '../CreateWorkflowDialog';
import { DescriptionAndTagsFields } from '../DescriptionAndTagsFields';
import { useGetWorkflowInfoQuery, useUpdateWorkflowMutation } from '../workflowsApi';
import { lookOf } from './categories';
import type { VersionedWrite as Write } from '../versioning';

/** Description and tags of a workflow, with what it holds and what a run is expected to cost. */
export function WorkflowDetailsDialog({ workflow, write, open, onClose }: { workflow: WorkflowOut; write: Write; open: boolean; onClose: () => void }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [description, setDescription] = useState(workflow.description);
  const [tags, setTags] = useState(workflow.tags.join(', '));
  const [updateWorkflow, { isLoading }] = useUpdateWorkflowMutation();
  const { data: info } = useGetWorkflowInfoQuery(workflow.id, { skip: !open });

  const submit = async () => {
    const changes = { description: description.trim(), tags: parseTags(tags) };
    const unchanged = changes.description === workflow.description && changes.tags.join('\u0000') === workflow.tags.join('\u0000');
    try {
      if (!unchanged) await write((version) => updateWorkflow({ id: workflow.id, version, changes }).unwrap());
      onClose();
    } catch {
      // The notices already say what went wrong; the dialog stays open with what was typed.
    }
  };

  return (
    <FormDialog
      open={open}
      maxW="lg"
      title={t('editor.details.title')}
      submitLabel={t('editor.details.save')}
      loading={isLoading}
      onSubmit={submit}
      onCancel={onClose}
    >
      <Stack gap="5">
        <DescriptionAndTagsFields description={description} onDescriptionChange={setDescription} tags={tags} onTagsChange={setTags} />
        {info && (
          <Stack gap="3" borderTopWidth="1px" borderColor="border.muted" pt="4">
            <DataList.Root orientation="horizontal" size="sm">
              <DataList.Item>
                <DataList.ItemLabel>{t('editor.details.steps')}</DataList.ItemLabel>
                <DataList.ItemValue>
                  <HStack gap="1.5" wrap="wrap">
                    <Text>{info.step_count}</Text>
                    {Object.entries(info.steps_by_category).map(([category, count]) => (
                      <Badge key={category} size="sm" variant="subtle" colorPalette={lookOf(category).palette}>
                        {t(`catalogue.category.${category}`)} · {count}
                      </Badge>
                    ))}
                  </HStack>
                </DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>{t('editor.details.variables')}</DataList.ItemLabel>
                <DataList.ItemValue>{info.variable_count}</DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>{t('editor.details.cost')}</DataList.ItemLabel>
                <DataList.ItemValue>
                  {t('editor.details.costValue', {
                    perRun: formatCredits(intl, info.estimated_cost.credits_per_run),
                    perRecord: formatCredits(intl, info.estimated_cost.credits_per_record),
                  })}
                </DataList.ItemValue>
              </DataList.Item>
            </DataList.Root>
            {info.estimated_cost.notes.map((note) => (
              <Text key={note} textStyle="xs" color="fg.muted">
                {note}
              </Text>
            ))}
          </Stack>
        )}
      </Stack>
    </FormDialog>
  );
}
