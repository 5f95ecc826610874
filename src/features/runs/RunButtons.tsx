import { Alert, Box, Button, Flex, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { LuChevronsDown, LuChevronsUp, LuEye, LuPlay, LuStepForward } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import type { StepOut } from '../../../server/src/modules/steps/steps.schemas';
import { CostEstimate } from '../usage/CostEstimate';
import { recordsText, RunStateBadge } from './RunStateBadge';
import { PREVIEW_SAMPLE_SIZE, useExecuteStepMutation, type RunMode, type StepRun, type WorkflowRun } from './runsApi';

/** The step "Run workflow" targets: the last one nothing reads from (the whole workflow runs either way). */
export function lastStepOf(steps: StepOut[]): StepOut | undefined {
  const read = new Set(steps.flatMap((s) => s.inputs));
  return [...steps].reverse().find((s) => !read.has(s.id)) ?? steps[steps.length - 1];
}

interface RunStarter {
  workflowId: string;
  /** A run of this workflow is open: no other can start. */
  busy: boolean;
  /** The new run is shown (canvas, run panel). */
  onStarted: (run: WorkflowRun) => void;
}

function useStart({ workflowId, onStarted }: RunStarter) {
  const [execute, { isLoading }] = useExecuteStepMutation();
  const start = async (stepId: string, mode: RunMode, sampleSize?: number) => {
    const result = await execute({ workflowId, stepId, mode, sampleSize });
    if ('data' in result && result.data) onStarted(result.data);
  };
  return { start, starting: isLoading };
}

/** The editor toolbar's "Run workflow". */
export function RunWorkflowButton({ steps, ...starter }: RunStarter & { steps: StepOut[] }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { start, starting } = useStart(starter);
  const target = lastStepOf(steps);
  const reason = !target ? t('run.noSteps') : starter.busy ? t('run.busy') : t('run.workflowHint');
  return (
    <HStack gap="2">
      {/* What the run would cost against the balance (billing servers only), before the click. */}
      {target && !starter.busy && (
        <Box display={{ base: 'none', lg: 'block' }}>
          <CostEstimate workflowId={starter.workflowId} stepId={target.id} mode="all" compact />
        </Box>
      )}
      <Button
        size="sm"
        colorPalette="brand"
        loading={starting}
        disabled={!target || starter.busy}
        title={reason}
        aria-label={t('run.workflow')}
        onClick={() => target && void start(target.id, 'all')}
      >
        <LuPlay aria-hidden />
        <Box as="span" display={{ base: 'none', sm: 'inline' }}>
          {t('run.workflow')}
        </Box>
      </Button>
    </HStack>
  );
}

/** In the step inspector: run up to / only / from this step, a preview, and its state in the run shown. */
export function StepRunSection({ step, stepRun, ...starter }: RunStarter & { step: StepOut; stepRun: StepRun | undefined }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const { start, starting } = useStart(starter);
  const disabled = starter.busy || starting;
  const actions: { mode: RunMode; label: string; hint: string; icon: typeof LuPlay; sample?: number }[] = [
    { mode: 'up_to', label: t('run.upTo'), hint: t('run.upToHint'), icon: LuChevronsDown },
    { mode: 'only', label: t('run.only'), hint: t('run.onlyHint'), icon: LuStepForward },
    { mode: 'from', label: t('run.from'), hint: t('run.fromHint'), icon: LuChevronsUp },
    {
      mode: 'up_to',
      label: t('run.preview', { count: PREVIEW_SAMPLE_SIZE }),
      hint: t('run.previewHint', { count: PREVIEW_SAMPLE_SIZE }),
      icon: LuEye,
      sample: PREVIEW_SAMPLE_SIZE,
    },
  ];
  return (
    <Stack as="section" gap="2" pb="4" mb="4" borderBottomWidth="1px" borderColor="border.muted" aria-labelledby="step-run-heading">
      <Flex align="center" gap="2" wrap="wrap">
        <Heading as="h3" id="step-run-heading" size="sm">
          {t('run.stepSection')}
        </Heading>
        {stepRun && (
          <>
            <RunStateBadge state={stepRun.state} size="sm" data-testid="inspector-run-state" />
            {stepRun.state !== 'queued' && stepRun.state !== 'skipped' && (
              <Text textStyle="xs" color="fg.muted">
                {recordsText(intl, stepRun)}
              </Text>
            )}
          </>
        )}
      </Flex>
      {stepRun?.error && (
        <Alert.Root status="error" size="sm" variant="subtle">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('run.error')}</Alert.Title>
            <Alert.Description whiteSpace="pre-wrap" wordBreak="break-word">
              {stepRun.error.message}
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      <Flex gap="2" wrap="wrap">
        {actions.map(({ mode, label, hint, icon: ActionIcon, sample }) => (
          <Button
            key={label}
            size="xs"
            variant="outline"
            disabled={disabled}
            title={starter.busy ? t('run.busy') : hint}
            onClick={() => void start(step.id, mode, sample)}
          >
            <ActionIcon aria-hidden />
            {label}
          </Button>
        ))}
      </Flex>
      {!starter.busy && <CostEstimate workflowId={starter.workflowId} stepId={step.id} mode="up_to" />}
      {starter.busy && (
        <Text textStyle="xs" color="fg.muted" data-testid="run-busy">
          {t('run.busy')}
        </Text>
      )}
    </Stack>
  );
}
