import { Alert, DataList, HStack, Stack, Text } from '@chakra-ui/react';
import { LuLock } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import type { StepInfoOut } from '../../../../server/src/modules/step-infos/step-infos.schemas';
import type { WorkflowOut } from '../../../../server/src/modules/workflows/workflows.schemas';
import { FormDialog } from '../../../components/FormDialog';
import { leftEmptyOnPublish } from './publishPreview';
import { TagBadges } from '../../../components/TagBadges';

export type PublishMode = 'publish' | 'update';

/**
 * Before anything becomes public: what the gallery will show (name, description, tags, how many
 * steps) and what it leaves out (secret values, the author's files and datasets), then Publish —
 * or, for a published workflow whose copy is older, Update.
 */
export function PublishDialog({
  workflow,
  catalogue,
  mode,
  open,
  loading,
  onConfirm,
  onCancel,
}: {
  workflow: WorkflowOut;
  catalogue: ReadonlyMap<string, Pick<StepInfoOut, 'params'>> | undefined;
  mode: PublishMode;
  open: boolean;
  loading: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const leftEmpty = leftEmptyOnPublish(workflow, catalogue);

  return (
    <FormDialog
      open={open}
      maxW="lg"
      title={t(mode === 'update' ? 'editor.publishDialog.updateTitle' : 'editor.publishDialog.title')}
      submitLabel={t(mode === 'update' ? 'editor.publishDialog.update' : 'editor.publishDialog.publish')}
      loading={loading}
      onSubmit={onConfirm}
      onCancel={onCancel}
    >
      <Stack gap="5">
        {mode === 'update' && (
          <Alert.Root status="info" size="sm" rounded="lg">
            <Alert.Indicator />
            <Alert.Description>
              {workflow.published_version === null
                ? t('editor.publishDialog.updateUnknown', { current: workflow.version })
                : t('editor.publishDialog.updateVersions', { published: workflow.published_version, current: workflow.version })}
            </Alert.Description>
          </Alert.Root>
        )}
        <Text textStyle="sm" color="fg.muted">
          {t('editor.publishDialog.intro')}
        </Text>
        <DataList.Root orientation="horizontal" size="sm" aria-label={t('editor.publishDialog.public')}>
          <DataList.Item>
            <DataList.ItemLabel>{t('editor.publishDialog.name')}</DataList.ItemLabel>
            <DataList.ItemValue fontWeight="semibold" wordBreak="break-word">
              {workflow.name}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('editor.publishDialog.description')}</DataList.ItemLabel>
            <DataList.ItemValue color={workflow.description ? undefined : 'fg.muted'} whiteSpace="pre-wrap" wordBreak="break-word">
              {workflow.description || t('workflows.noDescription')}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('editor.publishDialog.tags')}</DataList.ItemLabel>
            <DataList.ItemValue>
              {workflow.tags.length ? (
                <HStack gap="1.5" wrap="wrap">
                  <TagBadges tags={workflow.tags} />
                </HStack>
              ) : (
                <Text color="fg.muted">{t('editor.publishDialog.noTags')}</Text>
              )}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('editor.publishDialog.steps')}</DataList.ItemLabel>
            <DataList.ItemValue>{t('workflows.stepCount', { count: workflow.steps.length })}</DataList.ItemValue>
          </DataList.Item>
        </DataList.Root>
        <Stack gap="2" borderTopWidth="1px" borderColor="border.muted" pt="4">
          <HStack gap="2" fontWeight="semibold" textStyle="sm">
            <LuLock aria-hidden />
            <Text>{t('editor.publishDialog.privateTitle')}</Text>
          </HStack>
          <Text textStyle="sm" color="fg.muted">
            {t('editor.publishDialog.privateNote')}
          </Text>
          {leftEmpty.length > 0 ? (
            <Stack gap="1">
              <Text textStyle="sm" id="publish-left-empty">
                {t('editor.publishDialog.leftEmpty')}
              </Text>
              <Stack as="ul" gap="1" ps="5" listStyleType="disc" textStyle="sm" aria-labelledby="publish-left-empty">
                {leftEmpty.map((item) => {
                  const text =
                    item.kind === 'param'
                      ? t('editor.publishDialog.leftEmptyParam', { step: item.step, param: item.param })
                      : t('editor.publishDialog.leftEmptyVariable', { variable: item.variable });
                  return <li key={text}>{text}</li>;
                })}
              </Stack>
            </Stack>
          ) : (
            <Text textStyle="sm" color="fg.muted">
              {t('editor.publishDialog.nothingLeftEmpty')}
            </Text>
          )}
        </Stack>
      </Stack>
    </FormDialog>
  );
}
