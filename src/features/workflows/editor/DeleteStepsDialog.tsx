import { Box, Stack } from '@chakra-ui/react';
import { useEffect, useRef } from 'react';
import { useIntl } from 'react-intl';
import type { StepOut } from '../../../../server/src/modules/steps/steps.schemas';
import { ConfirmDialog } from '../../../components/ConfirmDialog';

/**
 * "Delete the step …?" before steps leave the workflow, however asked (the settings panel, the
 * selection bar, the Delete key): one step is named, several are listed. Steps gone meanwhile (an
 * undo, an agent's edit) are left out; with none left the question closes by itself.
 */
export function DeleteStepsDialog({
  steps,
  ids,
  onConfirm,
  onCancel,
}: {
  /** The workflow's steps now. */
  steps: StepOut[];
  /** The steps asked about (empty: closed). */
  ids: string[];
  onConfirm: (ids: string[]) => void;
  onCancel: () => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const asking = steps.filter((s) => ids.includes(s.id));
  // While it closes, the dialog keeps saying what it asked (not "Delete 0 steps?").
  const lastAsked = useRef(asking);
  if (asking.length) lastAsked.current = asking;
  const asked = asking.length ? asking : lastAsked.current;
  const single = asked.length === 1 ? asked[0] : undefined;
  const gone = ids.length > 0 && asking.length === 0;
  useEffect(() => {
    if (gone) onCancel();
  }, [gone, onCancel]);
  return (
    <ConfirmDialog
      open={asking.length > 0}
      title={single ? t('editor.deleteStep.title', { name: single.name }) : t('editor.deleteSteps.title', { count: asked.length })}
      body={t(single ? 'editor.deleteStep.body' : 'editor.deleteSteps.body')}
      details={
        single ? undefined : (
          <Stack as="ul" gap="1" ps="5" listStyleType="disc" textStyle="sm" aria-label={t('editor.deleteSteps.list')}>
            {asked.map((s) => (
              <Box as="li" key={s.id}>
                {s.name}
              </Box>
            ))}
          </Stack>
        )
      }
      confirmLabel={t(single ? 'editor.deleteStep.confirm' : 'editor.deleteSteps.confirm')}
      destructive
      onConfirm={() => onConfirm(asking.map((s) => s.id))}
      onCancel={onCancel}
    />
  );
}
