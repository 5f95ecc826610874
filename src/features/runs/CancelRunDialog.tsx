import { Flex, Stack, Text } from '@chakra-ui/react';
import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { isOpenState } from './runLook';
import { recordsText, RunStateBadge } from './RunStateBadge';
import type { StepRun, WorkflowRun } from './runsApi';

interface CancelRunDialogProps {
  /** The run shown, kept current by its events: the counts move while the question is open. */
  run: WorkflowRun;
  /** Set to cancel one step run of the run; the whole run otherwise. */
  stepRunId?: string | null;
  open: boolean;
  loading?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * "Cancel the run?" with what is done so far: each step run's state and records done of total, as
 * the run's answer has them (it carries no credits, so none are shown). "Keep running" leaves it be.
 * It closes by itself once there is nothing left to cancel (the run ended meanwhile).
 */
export function CancelRunDialog({ run, stepRunId = null, open, loading, onConfirm, onCancel }: CancelRunDialogProps) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const stepRun = stepRunId ? run.step_runs.find((s) => s.id === stepRunId) : undefined;
  const shown = stepRun ? [stepRun] : run.step_runs;
  const cancellable = stepRunId ? !!stepRun && isOpenState(stepRun.state) : isOpenState(run.state);
  const finished = run.step_runs.filter((s) => !isOpenState(s.state)).length;
  // Ended meanwhile: the question is void (and must not come back if the run is retried).
  useEffect(() => {
    if (open && !cancellable) onCancel();
  }, [cancellable, onCancel, open]);

  return (
    <ConfirmDialog
      open={open && cancellable}
      title={stepRun ? t('run.cancelStepConfirm.title', { name: stepRun.step_name }) : t('run.cancelConfirm.title')}
      body={stepRun ? t('run.cancelStepConfirm.body') : t('run.cancelConfirm.body')}
      details={
        <Stack gap="2" data-testid="cancel-run-progress">
          {!stepRun && (
            <Text textStyle="sm" fontWeight="semibold">
              {t('run.panel.stepsDone', { done: finished, total: run.step_runs.length })}
            </Text>
          )}
          <Stack as="ul" gap="1.5" listStyleType="none" aria-label={t('run.cancelConfirm.doneSoFar')}>
            {shown.map((s) => (
              <DoneSoFar key={s.id} stepRun={s} />
            ))}
          </Stack>
        </Stack>
      }
      confirmLabel={t(stepRun ? 'run.cancelStepConfirm.confirm' : 'run.cancelConfirm.confirm')}
      cancelLabel={t('run.cancelConfirm.keep')}
      destructive
      loading={loading}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}

/** One step run in the question: its name, state and records (none yet while queued or skipped). */
function DoneSoFar({ stepRun }: { stepRun: StepRun }) {
  const intl = useIntl();
  const counted = stepRun.state !== 'queued' && stepRun.state !== 'skipped';
  return (
    <Flex as="li" gap="2" align="center" wrap="wrap" textStyle="sm" data-testid="cancel-run-step">
      <Text as="span" fontWeight="medium" truncate maxW="60">
        {stepRun.step_name}
      </Text>
      <RunStateBadge state={stepRun.state} size="sm" />
      {counted && (
        <Text as="span" color="fg.muted" textStyle="xs">
          {recordsText(intl, stepRun)}
        </Text>
      )}
    </Flex>
  );
}
